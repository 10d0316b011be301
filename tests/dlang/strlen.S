clause 0 (line 2): :::BEGIN
action 0: trace size=8
value 0:
.rtype u64
	ldgs execname, %r1
	pushtr str, %r0, %r1
	call strlen, %r1
	ret %r1
