clause 0 (line 2): :::BEGIN
action 0: printf fmt="%s[%d] %x
" size=0
value 0:
.rtype string
	ldgs execname, %r1
	ret %r1
value 1:
.rtype i32
	ldgs pid, %r1
	ret %r1
value 2:
.rtype u64
	ldgs timestamp, %r1
	ret %r1
