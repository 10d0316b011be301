clause 0 (line 2): :::BEGIN
action 0: trace size=8
value 0:
.rtype u64
.int -81985529216486896
	setx -81985529216486896, %r1
	ret %r1
