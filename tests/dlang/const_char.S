clause 0 (line 2): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
.int 65
	setx 65, %r1
	ret %r1
