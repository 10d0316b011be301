clause 0 (line 2): :::BEGIN
action 0: expr size=0
value 0:
.rtype u64
.str "ts"
.var ts 0x500 thread scalar u64 flags=2
	ldgs timestamp, %r1
	stts ts, %r1
	ret %r1
action 1: trace size=8
value 0:
.rtype u64
.str "ts"
.var ts 0x500 thread scalar u64 flags=1
	ldgs timestamp, %r1
	ldts ts, %r2
	sub %r1, %r2, %r1
	ret %r1
