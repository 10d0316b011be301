clause 0 (line 3): :::BEGIN
action 0: expr size=0
value 0:
.rtype string
.str "none"
.str "s"
.int 1
.var s 0x500 global scalar string flags=2
	ldgs pid, %r1
	setx 1, %r2
	cmp %r1, %r2
	ble L6
	ldgs execname, %r1
	ba L7
L6:
	sets "none", %r1
L7:
	stgs s, %r1
	ret %r1
action 1: expr size=0
value 0:
.rtype string
.str "s"
.str "!"
.var s 0x500 global scalar string flags=1
.var s 0x500 local scalar string flags=2
	ldgs s, %r1
	sets "!", %r2
	pushtr str, %r0, %r1
	pushtr str, %r0, %r2
	call strjoin, %r1
	stls s, %r1
	ret %r1
action 2: expr size=0
value 0:
.rtype u64
.str "r"
.var r 0x501 global scalar u64 flags=2
	ldgs arg0, %r1
	stgs r, %r1
	ret %r1
action 3: trace size=4
value 0:
.rtype i32
.str "r"
.int 24
.var r 0x501 global scalar u64 flags=1
	ldgs r, %r1
	setx 24, %r2
	add %r1, %r2, %r1
	ldx [%r1], %r1
	ldsw [%r1], %r1
	ret %r1
action 4: trace size=1
value 0:
.rtype i8
.str "r"
.int 4
.int 3
.var r 0x501 global scalar u64 flags=1
	ldgs r, %r1
	setx 4, %r2
	add %r1, %r2, %r1
	setx 3, %r2
	add %r1, %r2, %r1
	ldsb [%r1], %r1
	ret %r1
action 5: trace size=256
value 0:
.rtype string
.str "r"
.int 4
.var r 0x501 global scalar u64 flags=1
	ldgs r, %r1
	setx 4, %r2
	add %r1, %r2, %r1
	ret %r1
action 6: expr size=0
value 0:
.rtype i32
.str "y"
.str "x"
.int 3
.var y 0x502 global scalar i32 flags=2
.var x 0x503 global scalar i32 flags=2
	setx 3, %r1
	stgs y, %r1
	stgs x, %r1
	ret %r1
action 7: trace size=4
value 0:
.rtype i32
.str "x"
.int 4
.var x 0x503 global scalar i32 flags=2
	setx 4, %r1
	stgs x, %r1
	ret %r1
action 8: expr size=0
value 0:
.rtype i32
.str "a"
.int 1
.var a 0x504 global array i32 flags=2
	setx 1, %r1
	setx 1, %r2
	pushtv %r2
	stgaa a, %r1
	ret %r1
action 9: expr size=0
value 0:
.rtype i32
.str "a"
.int 2
.int 1
.int 32
.var a 0x504 global array i32 flags=3
	setx 2, %r1
	setx 1, %r3
	pushtv %r3
	ldgaa a, %r2
	add %r2, %r1, %r2
	setx 32, %r1
	shl %r2, %r1, %r2
	sra %r2, %r1, %r2
	setx 1, %r1
	pushtv %r1
	stgaa a, %r2
	ret %r2
action 10: expr size=0
value 0:
.rtype i32
.str "z"
.str "b"
.int 1
.int 32
.var b 0x500 thread array i32 flags=3
	setx 1, %r2
	sets "z", %r3
	pushtv %r2
	pushtr str, %r0, %r3
	ldtaa b, %r1
	setx 1, %r2
	add %r1, %r2, %r3
	setx 32, %r4
	shl %r3, %r4, %r3
	sra %r3, %r4, %r3
	setx 1, %r4
	sets "z", %r5
	pushtv %r4
	pushtr str, %r0, %r5
	sttaa b, %r3
	ret %r1
action 11: trace size=8
value 0:
.rtype u64
.int 4
	setx 4, %r1
	ret %r1
action 12: trace size=8
value 0:
.rtype i64
	ldgs pid, %r1
	ldga args, %r1, %r1
	ret %r1
action 13: trace size=4
value 0:
.rtype i32
.str "r"
.var r 0x501 global scalar u64 flags=1
	ldgs r, %r1
	ldsw [%r1], %r1
	ret %r1
action 14: aggregate @a size=0
value 0:
.rtype i32
.int 1
	setx 1, %r1
	ret %r1
value 1:
.rtype i32
.int 2
	setx 2, %r1
	ret %r1
action 15: printa fmt="%d %d %@d
" @a size=0
action 16: trace size=4
value 0:
.rtype i32
.str "r"
.int 1
.int 32
.var r 0x501 global scalar u64 flags=1
	ldgs r, %r1
	setx 1, %r2
	setx 32, %r3
	mul %r2, %r3, %r2
	add %r1, %r2, %r1
	ldsw [%r1], %r1
	ret %r1
action 17: trace size=4
value 0:
.rtype i32
.str "r"
.int 2
.int 32
.var r 0x501 global scalar u64 flags=1
	ldgs r, %r1
	setx 2, %r2
	setx 32, %r3
	mul %r2, %r3, %r2
	add %r1, %r2, %r1
	ldsw [%r1], %r1
	ret %r1
action 18: expr size=0
value 0:
.rtype u64
.str "r"
.str "p"
.int 4
.int 2
.var r 0x501 global scalar u64 flags=1
.var p 0x505 global scalar u64 flags=2
	ldgs r, %r1
	setx 4, %r2
	add %r1, %r2, %r1
	setx 2, %r2
	add %r1, %r2, %r1
	stgs p, %r1
	ret %r1
action 19: trace size=1
value 0:
.rtype i8
.str "p"
.var p 0x505 global scalar u64 flags=1
	ldgs p, %r1
	ldsb [%r1], %r1
	ret %r1
action 20: trace size=4
value 0:
.rtype i32
.int 0
	setx 0, %r1
	ret %r1
action 21: trace size=4
value 0:
.rtype i32
.int 1
	ldgs timestamp, %r1
	setx 1, %r2
	sub %r1, %r2, %r1
	tst %r1
	bleu L7
	setx 1, %r1
	ret %r1
L7:
	ret %r0
