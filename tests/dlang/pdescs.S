clause 0 (line 2): fbt::vfs_*:entry fbt:kernel:k?alloc:return profile:::tick-1s :::ERROR
action 0: trace size=256
value 0:
.rtype string
	ldgs probefunc, %r1
	ret %r1
