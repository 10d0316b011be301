clause 0 (line 2): :::BEGIN
action 0: aggregate @a size=0
value 0:
.rtype i32
.int 3
	setx 3, %r1
	ret %r1
value 1:
.rtype i32
.int 4
	setx 4, %r1
	ret %r1
action 1: aggregate @b size=0
value 0:
.rtype i32
.int 5
	setx 5, %r1
	ret %r1
value 1:
.rtype i64
	ldgs arg0, %r1
	ret %r1
action 2: aggregate @c size=0
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
action 3: aggregate @d size=0
value 0:
.rtype i32
.int 3
	setx 3, %r1
	ret %r1
