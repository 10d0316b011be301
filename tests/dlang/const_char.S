clause 0 (line 2): :::BEGIN
action 0: trace size=1
value 0:
.rtype i8
.int 65
	setx 65, %r1
	ret %r1
