clause 0 (line 4): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
.int 17
	setx 17, %r1
	ret %r1
