/*
 * sunray-5-ustack.d - the SunRay replay, step 5 (docs/labs/sunray.md): why
 * does the X server map /dev/zero?  Aggregate on the user stack of each of
 * its mmaps.  Run until Ctrl-C; the paper found every one on the path that
 * creates a Pixmap.
 */
syscall::mmap:entry
/execname == "xsrv"/
{
	@[ustack()] = count();
}
