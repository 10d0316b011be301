clause 0 (line 2): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
.int 1
	ldgs pid, %r1
	ldgs tid, %r2
	cmp %r1, %r2
	bge L6
	setx 1, %r1
	ret %r1
L6:
	ret %r0
