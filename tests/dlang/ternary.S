clause 0 (line 2): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
.int 1
	ldgs pid, %r1
	setx 1, %r2
	cmp %r1, %r2
	bg L6
	mov %r0, %r1
	ba L7
L6:
	setx 1, %r1
L7:
	tst %r1
	be L11
	ldgs pid, %r1
	ba L12
L11:
	ldgs tid, %r1
L12:
	ret %r1
