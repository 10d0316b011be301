clause 0 (line 2): :::BEGIN
action 0: trace size=8
value 0:
.rtype i64
	ldgs arg0, %r1
	ldgs arg9, %r2
	add %r1, %r2, %r1
	ret %r1
