clause 0 (line 5): :::BEGIN
action 0: expr size=0
value 0:
.rtype i32
.str "p"
.int 3
.int 8
.var p 0x500 global scalar blob:8 flags=3
	setx 3, %r1
	ldgs p, %r2
	tst %r2
	bne L6
	setx 8, %r3
	allocs %r3, %r2
L6:
	setx 8, %r3
	allocs %r3, %r4
	copys %r2, %r3, %r4
	mov %r4, %r2
	stw %r1, [%r2]
	stgs p, %r4
	ret %r1
action 1: expr size=0
value 0:
.rtype i32
.str "p"
.int -4
.int 8
.int 4
.var p 0x500 global scalar blob:8 flags=3
	setx -4, %r1
	ldgs p, %r2
	tst %r2
	bne L6
	setx 8, %r3
	allocs %r3, %r2
L6:
	setx 8, %r3
	allocs %r3, %r4
	copys %r2, %r3, %r4
	mov %r4, %r2
	setx 4, %r3
	add %r2, %r3, %r2
	stw %r1, [%r2]
	stgs p, %r4
	ret %r1
action 2: expr size=0
value 0:
.rtype i32
.str "arr"
.int 1
.int 16
.int 0
.int 4
.var arr 0x501 global scalar blob:16 flags=3
	setx 1, %r1
	ldgs arr, %r2
	tst %r2
	bne L6
	setx 16, %r3
	allocs %r3, %r2
L6:
	setx 16, %r3
	allocs %r3, %r4
	copys %r2, %r3, %r4
	mov %r4, %r2
	setx 0, %r3
	setx 4, %r5
	mul %r3, %r5, %r3
	add %r2, %r3, %r2
	stw %r1, [%r2]
	stgs arr, %r4
	ret %r1
action 3: expr size=0
value 0:
.rtype i32
.str "arr"
.int 8
.int 16
.int 3
.int 4
.var arr 0x501 global scalar blob:16 flags=3
	setx 8, %r1
	ldgs arr, %r2
	tst %r2
	bne L6
	setx 16, %r3
	allocs %r3, %r2
L6:
	setx 16, %r3
	allocs %r3, %r4
	copys %r2, %r3, %r4
	mov %r4, %r2
	setx 3, %r3
	setx 4, %r5
	mul %r3, %r5, %r3
	add %r2, %r3, %r2
	stw %r1, [%r2]
	stgs arr, %r4
	ret %r1
action 4: expr size=0
value 0:
.rtype i32
.str "arr"
.int 2
.int 16
.int 4
.var arr 0x501 global scalar blob:16 flags=3
	setx 2, %r1
	ldgs arr, %r2
	tst %r2
	bne L6
	setx 16, %r3
	allocs %r3, %r2
L6:
	setx 16, %r3
	allocs %r3, %r4
	copys %r2, %r3, %r4
	mov %r4, %r2
	ldgs pid, %r3
	setx 4, %r5
	srem %r3, %r5, %r3
	setx 4, %r5
	cmp %r3, %r5
	blu L17
	ldx [%r0], %r5
L17:
	setx 4, %r5
	mul %r3, %r5, %r3
	add %r2, %r3, %r2
	mov %r2, %r3
	ldsw [%r3], %r3
	add %r3, %r1, %r3
	stw %r3, [%r2]
	stgs arr, %r4
	ret %r3
action 5: printf fmt="%d %d %d %d %d
" size=0
value 0:
.rtype i32
.str "p"
.int 8
.var p 0x500 global scalar blob:8 flags=1
	ldgs p, %r1
	tst %r1
	bne L5
	setx 8, %r2
	allocs %r2, %r1
L5:
	ldsw [%r1], %r1
	ret %r1
value 1:
.rtype i32
.str "p"
.int 8
.int 4
.var p 0x500 global scalar blob:8 flags=1
	ldgs p, %r1
	tst %r1
	bne L5
	setx 8, %r2
	allocs %r2, %r1
L5:
	setx 4, %r2
	add %r1, %r2, %r1
	ldsw [%r1], %r1
	ret %r1
value 2:
.rtype i32
.str "arr"
.int 16
.int 0
.int 4
.var arr 0x501 global scalar blob:16 flags=1
	ldgs arr, %r1
	tst %r1
	bne L5
	setx 16, %r2
	allocs %r2, %r1
L5:
	setx 0, %r2
	setx 4, %r3
	mul %r2, %r3, %r2
	add %r1, %r2, %r1
	ldsw [%r1], %r1
	ret %r1
value 3:
.rtype i32
.str "arr"
.int 16
.int 3
.int 4
.var arr 0x501 global scalar blob:16 flags=1
	ldgs arr, %r1
	tst %r1
	bne L5
	setx 16, %r2
	allocs %r2, %r1
L5:
	setx 3, %r2
	setx 4, %r3
	mul %r2, %r3, %r2
	add %r1, %r2, %r1
	ldsw [%r1], %r1
	ret %r1
value 4:
.rtype u64
.int 8
	setx 8, %r1
	ret %r1
action 6: trace size=4
value 0:
.rtype i32
.str "arr"
.int 16
.int 4
.var arr 0x501 global scalar blob:16 flags=1
	ldgs arr, %r1
	tst %r1
	bne L5
	setx 16, %r2
	allocs %r2, %r1
L5:
	ldgs arg0, %r2
	setx 4, %r3
	cmp %r2, %r3
	blu L10
	ldx [%r0], %r3
L10:
	setx 4, %r3
	mul %r2, %r3, %r2
	add %r1, %r2, %r1
	ldsw [%r1], %r1
	ret %r1
