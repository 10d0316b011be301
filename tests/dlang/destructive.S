clause 0 (line 3): :::BEGIN
action 0: chill size=8
value 0:
.rtype i32
.int 1000
	setx 1000, %r1
	ret %r1
action 1: raise size=8
value 0:
.rtype i32
.int 9
	setx 9, %r1
	ret %r1
action 2: panic size=0
