clause 0 (line 2): :::BEGIN
action 0: expr size=0
value 0:
.rtype i32
.str "x"
.var x 0x500 global scalar i32 flags=2
	ldgs pid, %r1
	stgs x, %r1
	ret %r1
