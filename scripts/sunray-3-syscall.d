/*
 * sunray-3-syscall.d - the SunRay replay, step 3 (docs/labs/sunray.md):
 * which system call of the X server sends the cross-calls?  A thread-local
 * variable remembers the call each server thread entered last, and each
 * cross-call counts under it (a cross-call outside any system call, from
 * a page fault, would count under the call before; xsrv has none).  Run
 * until Ctrl-C; the paper's answer was munmap(2).
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
