clause 0 (line 2): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
.int 255
.int 3
	ldgs pid, %r1
	setx 255, %r2
	and %r1, %r2, %r1
	ldgs tid, %r2
	setx 3, %r3
	xor %r2, %r3, %r2
	or %r1, %r2, %r1
	ret %r1
action 1: trace size=4
value 0:
.rtype i32
	ldgs pid, %r1
	not %r1, %r1
	ret %r1
