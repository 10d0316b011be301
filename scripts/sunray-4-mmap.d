/*
 * sunray-4-mmap.d - the SunRay replay, step 4 (docs/labs/sunray.md): what
 * does the X server map, and which servers map most?  Every munmap undoes an
 * mmap: count the servers' mmaps by process and by file descriptor (arg4).
 * Run until Ctrl-C; sunray says which file the descriptor is.  The paper found
 * fd 4, /dev/zero, and 6 of 170 servers far ahead of the rest.
 */
syscall::mmap:entry
/execname == "xsrv"/
{
	@[pid, (int)arg4] = count();
}
