clause 0 (line 5): :::BEGIN
action 0: trace size=64
value 0:
.rtype string
	ldgs execname, %r1
	ret %r1
