clause 0 (line 2): :::BEGIN
action 0: trace size=2
value 0:
.rtype u16
.int 48
	ldgs arg0, %r1
	setx 48, %r2
	shl %r1, %r2, %r1
	srl %r1, %r2, %r1
	ret %r1
