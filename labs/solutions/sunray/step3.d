/*
 * Step 3: which of the X server's system calls sends them?  A thread-local
 * remembers the call the thread is in; each cross-call counts under it.
 */
syscall:::entry
/execname == "xsrv"/
{
	self->syscall = probefunc;
}

syscall:::return
/self->syscall != NULL/
{
	self->syscall = 0;
}

sysinfo:::xcalls
/execname == "xsrv"/
{
	@[self->syscall] = count();
}

tick-3s
{
	exit(0);
}
