clause 0 (line 2): :::BEGIN
predicate:
.rtype i32
.str "idle"
.int 1
	ldgs pid, %r1
	tst %r1
	ble L9
	ldgs execname, %r1
	sets "idle", %r2
	scmp %r1, %r2
	be L9
	setx 1, %r1
	ret %r1
L9:
	ret %r0
action 0: trace size=4
value 0:
.rtype i32
	ldgs pid, %r1
	ret %r1
