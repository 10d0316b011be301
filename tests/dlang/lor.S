clause 0 (line 2): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
.int 1
	ldgs pid, %r1
	tst %r1
	bne L8
	ldgs tid, %r2
	tst %r2
	bne L8
	mov %r0, %r1
	ba L9
L8:
	setx 1, %r1
L9:
	ret %r1
