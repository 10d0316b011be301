clause 0 (line 2): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
.int 7
	ldgs pid, %r1
	setx 7, %r2
	srem %r1, %r2, %r1
	ret %r1
