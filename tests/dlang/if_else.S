clause 0 (line 2): :::BEGIN
predicate:
.rtype i32
	ldgs pid, %r1
	ret %r1
action 0: expr size=0
value 0:
.rtype i32
.str "x"
.int 1
.var x 0x500 global scalar i32 flags=2
	setx 1, %r1
	stgs x, %r1
	ret %r1
action 1: expr size=0
value 0:
.rtype i32
.str "__if1"
.int 10
.int 1
.int 2
.var __if1 0x500 local scalar i32 flags=2
	ldgs arg0, %r1
	setx 10, %r2
	cmp %r1, %r2
	ble L6
	setx 1, %r1
	ba L7
L6:
	setx 2, %r1
L7:
	stls __if1, %r1
	ret %r1
clause 1 (line 2): :::BEGIN
predicate:
.rtype i32
.str "__if1"
.int 1
.var __if1 0x500 local scalar i32 flags=1
	ldls __if1, %r1
	setx 1, %r2
	cmp %r1, %r2
	bne L6
	setx 1, %r1
	ret %r1
L6:
	ret %r0
action 0: trace size=256
value 0:
.rtype string
.str "big"
	sets "big", %r1
	ret %r1
action 1: expr size=0
value 0:
.rtype i32
.str "__if2"
.int 1
.int 2
.var __if2 0x501 local scalar i32 flags=2
	ldgs arg1, %r1
	tst %r1
	be L5
	setx 1, %r1
	ba L6
L5:
	setx 2, %r1
L6:
	stls __if2, %r1
	ret %r1
clause 2 (line 2): :::BEGIN
predicate:
.rtype i32
.str "__if2"
.int 1
.var __if2 0x501 local scalar i32 flags=1
	ldls __if2, %r1
	setx 1, %r2
	cmp %r1, %r2
	bne L6
	setx 1, %r1
	ret %r1
L6:
	ret %r0
action 0: trace size=256
value 0:
.rtype string
.str "both"
	sets "both", %r1
	ret %r1
clause 3 (line 2): :::BEGIN
predicate:
.rtype i32
.str "__if1"
.int 2
.int 1
.var __if1 0x500 local scalar i32 flags=1
	ldls __if1, %r1
	setx 2, %r2
	cmp %r1, %r2
	bne L6
	setx 1, %r1
	ret %r1
L6:
	ret %r0
action 0: expr size=0
value 0:
.rtype i32
.str "__if3"
.int 3
.int 1
.int 2
.var __if3 0x502 local scalar i32 flags=2
	ldgs arg0, %r1
	setx 3, %r2
	cmp %r1, %r2
	bne L6
	setx 1, %r1
	ba L7
L6:
	setx 2, %r1
L7:
	stls __if3, %r1
	ret %r1
clause 4 (line 2): :::BEGIN
predicate:
.rtype i32
.str "__if3"
.int 1
.var __if3 0x502 local scalar i32 flags=1
	ldls __if3, %r1
	setx 1, %r2
	cmp %r1, %r2
	bne L6
	setx 1, %r1
	ret %r1
L6:
	ret %r0
action 0: trace size=256
value 0:
.rtype string
.str "three"
	sets "three", %r1
	ret %r1
clause 5 (line 2): :::BEGIN
predicate:
.rtype i32
.str "__if1"
.int 1
.var __if1 0x500 local scalar i32 flags=1
	ldls __if1, %r1
	tst %r1
	be L5
	setx 1, %r1
	ret %r1
L5:
	ret %r0
action 0: trace size=256
value 0:
.rtype string
.str "after"
	sets "after", %r1
	ret %r1
action 1: trace size=256
value 0:
.rtype string
.str "const"
	sets "const", %r1
	ret %r1
