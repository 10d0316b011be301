clause 0 (line 2): :::BEGIN
action 0: trace size=4
value 0:
.rtype u32
.int 2147483647
	setx 2147483647, %r1
	ret %r1
