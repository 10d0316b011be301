clause 0 (line 3): :::BEGIN
action 0: trace size=8
value 0:
.rtype i64
.str "p"
.int 2
.int 8
.var p 0x500 global scalar u64 flags=1
	ldgs p, %r1
	setx 2, %r2
	setx 8, %r3
	mul %r2, %r3, %r2
	add %r1, %r2, %r1
	ldx [%r1], %r1
	ret %r1
