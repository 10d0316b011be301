clause 0 (line 2): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
.str "m"
.int 1
	ldgs probefunc, %r1
	sets "m", %r2
	scmp %r1, %r2
	bl L6
	mov %r0, %r1
	ba L7
L6:
	setx 1, %r1
L7:
	ret %r1
