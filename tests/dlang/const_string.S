clause 0 (line 2): :::BEGIN
action 0: trace size=256
value 0:
.rtype string
.str "hello"
	sets "hello", %r1
	ret %r1
