/* Step 4: the servers' mmaps, by process and file descriptor (arg4). */
syscall::mmap:entry
/execname == "xsrv"/
{
	@[pid, (int)arg4] = count();
}

tick-3s
{
	exit(0);
}
