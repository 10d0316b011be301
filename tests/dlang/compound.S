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
action 1: expr size=0
value 0:
.rtype i32
.str "x"
.int 32
.var x 0x500 global scalar i32 flags=3
	ldgs pid, %r1
	ldgs x, %r2
	add %r2, %r1, %r2
	setx 32, %r1
	shl %r2, %r1, %r2
	sra %r2, %r1, %r2
	stgs x, %r2
	ret %r2
