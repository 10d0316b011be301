clause 0 (line 5): :::BEGIN
action 0: expr size=0
value 0:
.rtype string
.str "r"
.str "who"
.int 4
.var r 0x500 global scalar u64 flags=1
.var who 0x500 thread scalar string flags=2
	ldgs r, %r1
	setx 4, %r2
	add %r1, %r2, %r1
	stts who, %r1
	ret %r1
action 1: trace size=4
value 0:
.rtype i32
.str "r"
.int 3
.int 1
.var r 0x500 global scalar u64 flags=1
	ldgs r, %r1
	ldsw [%r1], %r1
	setx 3, %r2
	cmp %r1, %r2
	bne L7
	setx 1, %r1
	ret %r1
L7:
	ret %r0
