clause 0 (line 2): :::BEGIN
action 0: aggregate @a size=0
value 0:
.rtype i32
.int 1
	setx 1, %r1
	ret %r1
action 1: stack arg=5 size=40
action 2: tracemem arg=16 size=16
value 0:
.rtype i64
	ldgs arg0, %r1
	ret %r1
action 3: sym size=8
value 0:
.rtype u64
	ldgs caller, %r1
	ret %r1
action 4: mod size=8
value 0:
.rtype u64
	ldgs caller, %r1
	ret %r1
action 5: clear @a size=0
action 6: trunc @a size=0
value 0:
.rtype i32
.int 3
	setx 3, %r1
	ret %r1
action 7: normalize @a size=0
value 0:
.rtype i32
.int 10
	setx 10, %r1
	ret %r1
action 8: denormalize @a size=0
action 9: setopt size=0
value 0:
.rtype string
.str "quiet"
	sets "quiet", %r1
	ret %r1
action 10: exit size=8
value 0:
.rtype i32
.int 0
	setx 0, %r1
	ret %r1
