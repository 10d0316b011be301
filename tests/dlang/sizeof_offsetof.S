clause 0 (line 3): :::BEGIN
action 0: trace size=8
value 0:
.rtype u64
.int 24
	setx 24, %r1
	ret %r1
