clause 0 (line 2): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
.int 1
	ldgs pid, %r1
	tst %r1
	bne L5
	setx 1, %r1
	ret %r1
L5:
	ret %r0
