clause 0 (line 2): :::BEGIN
action 0: trace size=256
value 0:
.rtype string
.str ":"
	ldgs execname, %r1
	sets ":", %r2
	ldgs probefunc, %r3
	pushtr str, %r0, %r2
	pushtr str, %r0, %r3
	call strjoin, %r2
	pushtr str, %r0, %r1
	pushtr str, %r0, %r2
	call strjoin, %r1
	ret %r1
