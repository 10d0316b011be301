clause 0 (line 2): :::profile-997
action 0: aggregate @ size=0
value 0:
(recorded by the framework)
action 1: aggregate @s size=0
value 0:
.rtype u64
	ldgs caller, %r1
	ret %r1
value 1:
.rtype string
	ldgs probefunc, %r1
	ret %r1
action 2: aggregate @k size=0
value 0:
(recorded by the framework)
value 1:
.rtype i64
	ldgs arg0, %r1
	ret %r1
value 2:
.rtype i32
.int 1
	setx 1, %r1
	ret %r1
