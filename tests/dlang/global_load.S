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
.var x 0x500 global scalar i32 flags=1
	ldgs x, %r1
	ret %r1
