clause 0 (line 2): :::BEGIN
action 0: trace size=8
value 0:
.rtype u64
.int 3
	ldgs timestamp, %r1
	setx 3, %r2
	udiv %r1, %r2, %r1
	ret %r1
