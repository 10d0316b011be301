/*
 * Step 6: for whom?  After an mmap, the next thread the server wakes is
 * the client its reply goes to: count the programs woken next.
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

tick-3s
{
	exit(0);
}
