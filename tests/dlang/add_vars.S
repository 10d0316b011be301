clause 0 (line 2): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
	ldgs pid, %r1
	ldgs tid, %r2
	add %r1, %r2, %r1
	ret %r1
