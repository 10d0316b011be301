clause 0 (line 2): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
.str "m"
.int 1
	ldgs probefunc, %r1
	sets "m", %r2
	scmp %r1, %r2
	bge L6
	setx 1, %r1
	ret %r1
L6:
	ret %r0
