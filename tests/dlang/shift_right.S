clause 0 (line 2): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
.int 1
	ldgs pid, %r1
	setx 1, %r2
	sra %r1, %r2, %r1
	ret %r1
action 1: trace size=8
value 0:
.rtype u64
.int 1
	ldgs timestamp, %r1
	setx 1, %r2
	srl %r1, %r2, %r1
	ret %r1
