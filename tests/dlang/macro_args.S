clause 0 (line 3): :::BEGIN
action 0: trace size=4
value 0:
.rtype i32
.int 8
	setx 8, %r1
	ret %r1
action 1: trace size=256
value 0:
.rtype string
.str "hello"
	sets "hello", %r1
	ret %r1
