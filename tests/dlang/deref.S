clause 0 (line 3): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
.str "p"
.var p 0x500 global scalar u64 flags=1
	ldgs p, %r1
	ldsw [%r1], %r1
	ret %r1
