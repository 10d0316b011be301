clause 0 (line 2): :::BEGIN
action 0: aggregate @c size=0
value 0:
.rtype string
	ldgs execname, %r1
	ret %r1
value 1:
.rtype i32
	ldgs pid, %r1
	ret %r1
action 1: aggregate @s size=0
value 0:
.rtype i64
	ldgs arg0, %r1
	ret %r1
action 2: aggregate @l size=0
value 0:
.rtype i64
	ldgs arg1, %r1
	ret %r1
action 3: printa fmt="%s %d %@d
" @c size=0
