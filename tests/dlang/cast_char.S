clause 0 (line 2): :::BEGIN
action 0: trace size=1
value 0:
.rtype i8
.int 56
	ldgs pid, %r1
	setx 56, %r2
	shl %r1, %r2, %r1
	sra %r1, %r2, %r1
	ret %r1
