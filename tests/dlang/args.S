clause 0 (line 2): :::BEGIN
action 0: trace size=8
value 0:
.rtype i64
.int 1
	setx 1, %r1
	ldga args, %r1, %r1
	ret %r1
