clause 0 (line 2): :::BEGIN
action 0: expr size=0
value 0:
.rtype i32
.str "x"
.int 1
.var x 0x500 global scalar i32 flags=2
	setx 1, %r1
	stgs x, %r1
	ret %r1
action 1: trace size=4
value 0:
.rtype i32
.str "x"
.int 1
.int 32
.var x 0x500 global scalar i32 flags=3
	ldgs x, %r1
	setx 1, %r2
	add %r1, %r2, %r1
	setx 32, %r3
	shl %r1, %r3, %r1
	sra %r1, %r3, %r1
	stgs x, %r1
	ret %r1
