clause 0 (line 2): :::BEGIN
action 0: expr size=0
value 0:
.rtype i32
.str "a"
.int 2
.int 1
.var a 0x500 thread array i32 flags=2
	setx 2, %r1
	setx 1, %r2
	pushtv %r2
	sttaa a, %r1
	ret %r1
action 1: trace size=4
value 0:
.rtype i32
.str "a"
.int 1
.var a 0x500 thread array i32 flags=1
	setx 1, %r2
	pushtv %r2
	ldtaa a, %r1
	ret %r1
