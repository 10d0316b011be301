clause 0 (line 2): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
.str "init"
.int 1
	ldgs execname, %r1
	sets "init", %r2
	scmp %r1, %r2
	bne L6
	setx 1, %r1
	ret %r1
L6:
	ret %r0
