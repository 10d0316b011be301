clause 0 (line 2): :::BEGIN
action 0: aggregate @q size=0
value 0:
.rtype u64
	ldgs timestamp, %r1
	ret %r1
action 1: aggregate @ll size=0
value 0:
.rtype i64
	ldgs arg0, %r1
	ret %r1
