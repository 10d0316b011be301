/*
 * ASSERTION: on either machine, the pid provider's entry and return probes
 * of /bin/pidloop 3 see inner's arguments (i, 10 i) and return value
 * (11 i), outer's argument and return value (11 i), uregs[R_PC] at inner's
 * entry its first instruction (ufunc names inner), ustackdepth and ucaller
 * at inner's entry (before any frame of its own); the program's
 * total is right (status 0).  On sparc64 both values are computed in the
 * return's delay slot (inner: `return %i7 + 8; add %o0, %o1, %o0`,
 * outer: `ret; restore %g0, %o0, %o0`): the probe must fire after it.
 * @@options: -q -c '/bin/pidloop 3'
 */
pid$target::inner:entry
{
	printf("inner(%d, %d) depth %d at ", arg0, arg1, ustackdepth);
	usym(uregs[R_PC]);
	printf(" caller ");
	ufunc(ucaller);
	printf("\n");
}

pid$target::inner:return
{
	printf("inner returned %d\n", arg1);
}

pid$target::outer:entry
{
	printf("outer(%d)\n", arg0);
}

pid$target::outer:return
{
	printf("outer returned %d\n", arg1);
}

syscall::exit_group:entry
/pid == $target/
{
	printf("status %d\n", arg0);
}
