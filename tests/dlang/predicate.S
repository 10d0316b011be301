clause 0 (line 2): :::BEGIN
predicate:
.rtype i32
.str "idle"
.int 0
.int 1
	ldgs pid, %r1
	setx 0, %r2
	cmp %r1, %r2
	bg L6
	mov %r0, %r1
	ba L7
L6:
	setx 1, %r1
L7:
	tst %r1
	be L20
	ldgs execname, %r2
	sets "idle", %r3
	scmp %r2, %r3
	bne L15
	mov %r0, %r2
	ba L16
L15:
	setx 1, %r2
L16:
	tst %r2
	be L20
	setx 1, %r1
	ba L21
L20:
	mov %r0, %r1
L21:
	ret %r1
action 0: trace size=4
value 0:
.rtype i32
	ldgs pid, %r1
	ret %r1
