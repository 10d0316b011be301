clause 0 (line 2): :::BEGIN
action 0: trace size=8
value 0:
.rtype u64
	ldgs timestamp, %r1
	ret %r1
