/* Step 5: why map /dev/zero?  The user stacks of the servers' mmaps. */
syscall::mmap:entry
/execname == "xsrv"/
{
	@[ustack()] = count();
}

tick-3s
{
	exit(0);
}
