clause 0 (line 2): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
.int 1
	ldgs pid, %r1
	tst %r1
	be L5
	mov %r0, %r1
	ba L6
L5:
	setx 1, %r1
L6:
	ret %r1
