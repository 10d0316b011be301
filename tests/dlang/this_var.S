clause 0 (line 2): :::BEGIN
action 0: expr size=0
value 0:
.rtype i32
.str "x"
.int 2
.var x 0x500 local scalar i32 flags=2
	ldgs pid, %r1
	setx 2, %r2
	mul %r1, %r2, %r1
	stls x, %r1
	ret %r1
action 1: trace size=4
value 0:
.rtype i32
.str "x"
.var x 0x500 local scalar i32 flags=1
	ldls x, %r1
	ret %r1
