/*
 * ASSERTION: copyinstr() reads the path a process passes to open(2) from
 * its own memory, and the return probe sees the failure: -1 and errno
 * ENOENT (2).
 * @@options: -q -c '/bin/cat /nope'
 */
syscall::open:entry
/execname == "cat"/
{
	printf("open %s\n", copyinstr(arg0));
}

syscall::open:return
/execname == "cat"/
{
	printf("returned %d errno %d\n", arg0, errno);
}
