/*
 * sunray-6-wakeup.d - the SunRay replay, step 6 (docs/labs/sunray.md): for
 * whom does the X server create all these pixmaps?  After an mmap, the
 * next thread the server wakes is the client its reply goes to: remember
 * the mmap in a thread-local variable and count the program woken next
 * (sched:::wakeup, args[1] the woken process's psinfo_t).  Run until
 * Ctrl-C; the paper's answer was gtik2_applet2, a stock ticker applet.
 */
syscall::mmap:entry
/execname == "xsrv"/
{
	self->mapped = 1;
}

sched:::wakeup
/self->mapped/
{
	@[stringof(args[1]->pr_fname)] = count();
	self->mapped = 0;
}
