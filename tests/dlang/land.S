clause 0 (line 2): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
.int 1
	ldgs pid, %r1
	tst %r1
	be L8
	ldgs tid, %r1
	tst %r1
	be L8
	setx 1, %r1
	ret %r1
L8:
	ret %r0
