/*
 * Step 3: which of the X server's system calls sends them?  A thread-local
 * remembers the call the thread entered last; each cross-call counts
 * under it.  (It is never cleared: a cross-call outside a system call,
 * at a page fault, say, would count under the call before it.)
 */
syscall:::entry
/execname == "xsrv"/
{
	self->syscall = probefunc;
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
