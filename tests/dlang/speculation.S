clause 0 (line 2): :::BEGIN
action 0: expr size=0
value 0:
.rtype i32
.str "spec"
.var spec 0x500 thread scalar i32 flags=2
	call speculation, %r1
	stts spec, %r1
	ret %r1
clause 1 (line 6): fbt::foo:entry
predicate:
.rtype i32
.str "spec"
.var spec 0x500 thread scalar i32 flags=1
	ldts spec, %r1
	ret %r1
action 0: speculate size=8
value 0:
.rtype i32
.str "spec"
.var spec 0x500 thread scalar i32 flags=1
	ldts spec, %r1
	ret %r1
action 1: trace size=8
value 0:
.rtype i64
	ldgs arg0, %r1
	ret %r1
clause 2 (line 12): fbt::foo:return
predicate:
.rtype i32
.str "spec"
.var spec 0x500 thread scalar i32 flags=1
	ldts spec, %r1
	ret %r1
action 0: commit size=8
value 0:
.rtype i32
.str "spec"
.var spec 0x500 thread scalar i32 flags=1
	ldts spec, %r1
	ret %r1
clause 3 (line 17): :::END
action 0: discard size=8
value 0:
.rtype i32
.int 1
	setx 1, %r1
	ret %r1
