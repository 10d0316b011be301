clause 0 (line 4): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
.int 2
	ldgs pid, %r1
	setx 2, %r2
	sdiv %r1, %r2, %r1
	ret %r1
