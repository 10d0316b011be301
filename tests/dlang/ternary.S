clause 0 (line 2): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
.int 1
	ldgs pid, %r1
	setx 1, %r2
	cmp %r1, %r2
	ble L6
	ldgs pid, %r1
	ba L7
L6:
	ldgs tid, %r1
L7:
	ret %r1
