clause 0 (line 2): :::BEGIN
action 0: expr size=0
value 0:
.rtype i32
.str "k"
.str "a"
.int 1
.var a 0x500 global array i32 flags=2
	setx 1, %r1
	ldgs pid, %r2
	sets "k", %r3
	pushtv %r2
	pushtr str, %r0, %r3
	stgaa a, %r1
	ret %r1
action 1: trace size=4
value 0:
.rtype i32
.str "k"
.str "a"
.var a 0x500 global array i32 flags=1
	ldgs pid, %r2
	sets "k", %r3
	pushtv %r2
	pushtr str, %r0, %r3
	ldgaa a, %r1
	ret %r1
