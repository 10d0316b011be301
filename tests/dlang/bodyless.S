clause 0 (line 2): :::BEGIN
clause 1 (line 3): :::END
clause 2 (line 4): fbt::foo:entry
predicate:
.rtype i32
	ldgs pid, %r1
	ret %r1
action 0: trace size=4
value 0:
.rtype i32
.int 1
	setx 1, %r1
	ret %r1
clause 3 (line 7): :::ERROR
