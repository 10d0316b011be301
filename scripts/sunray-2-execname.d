/*
 * sunray-2-execname.d - the SunRay replay, step 2 (docs/labs/sunray.md):
 * who causes the cross-calls?  sysinfo:::xcalls fires in the context of
 * the thread that sends them, so execname names the program.  Run until
 * Ctrl-C; the paper's answer was Xsun, the X server.
 */
sysinfo:::xcalls
{
	@[execname] = count();
}
