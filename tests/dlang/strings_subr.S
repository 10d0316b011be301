clause 0 (line 2): :::BEGIN
action 0: trace size=256
value 0:
.rtype string
.str "/a/b"
	sets "/a/b", %r1
	pushtr str, %r0, %r1
	call basename, %r1
	pushtr str, %r0, %r1
	call toupper, %r1
	ret %r1
action 1: trace size=4
value 0:
.rtype i32
.str "x"
	ldgs execname, %r1
	sets "x", %r2
	pushtr str, %r0, %r1
	pushtr str, %r0, %r2
	call index, %r1
	ret %r1
action 2: trace size=256
value 0:
.rtype string
	ldgs pid, %r1
	pushtv %r1
	call lltostr, %r1
	ret %r1
