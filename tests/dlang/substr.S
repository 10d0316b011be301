clause 0 (line 2): :::BEGIN
action 0: trace size=256
value 0:
.rtype string
.int 1
.int 3
	ldgs execname, %r1
	setx 1, %r2
	setx 3, %r3
	pushtr str, %r0, %r1
	pushtv %r2
	pushtv %r3
	call substr, %r1
	ret %r1
