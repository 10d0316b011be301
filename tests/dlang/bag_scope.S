clause 0 (line 2): :::BEGIN
action 0: expr size=0
value 0:
.rtype i32
.str "client"
.int 1
	sets "client", %r1
	ldgs execname, %r2
	setx 1, %r3
	pushtr str, %r0, %r1
	pushtr str, %r0, %r2
	pushtv %r3
	call bag_pack, %r1
	ret %r1
action 1: expr size=0
value 0:
.rtype i32
.str "req"
.int 7
.int 0
	sets "req", %r1
	setx 7, %r2
	setx 0, %r3
	pushtr str, %r0, %r1
	pushtv %r2
	pushtv %r3
	call bag_pack, %r1
	ret %r1
action 2: expr size=0
value 0:
.rtype i32
.str "bytes"
.int 2
	sets "bytes", %r1
	ldgs arg2, %r2
	setx 2, %r3
	pushtr str, %r0, %r1
	pushtv %r2
	pushtv %r3
	call bag_pack, %r1
	ret %r1
clause 1 (line 9): :::END
action 0: aggregate @ size=0
value 0:
.rtype string
.str "client"
.int 0
	sets "client", %r1
	setx 0, %r2
	pushtr str, %r0, %r1
	pushtv %r2
	call bag_getstr, %r1
	ret %r1
value 1:
.rtype i64
.str "req"
.int 1
	sets "req", %r1
	setx 1, %r2
	pushtr str, %r0, %r1
	pushtv %r2
	call bag_get, %r1
	ret %r1
value 2:
.rtype i64
.str "bytes"
.int 2
	sets "bytes", %r1
	setx 2, %r2
	pushtr str, %r0, %r1
	pushtv %r2
	call bag_get, %r1
	ret %r1
