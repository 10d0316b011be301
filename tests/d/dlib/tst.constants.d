/*
 * ASSERTION: the D library defines DTrace's predefined constants: errno
 * names with the values Sonde's system calls return (Linux's: ENOTSUP 95,
 * ETIMEDOUT 110, ESTALE 116), signal names with the kernel's (Linux's:
 * SIGCHLD 17, SIGSTOP 19, SIGRTMAX 64), the ERROR probe's
 * fault codes DTRACEFLT_*, the register indexes R_* for uregs[], and NULL,
 * a void pointer that is zero.
 */
#pragma D option quiet

BEGIN
{
	printf("errno %d %d %d %d %d %d %d %d\n", EPERM, ENOENT, EINTR,
	    EAGAIN, EWOULDBLOCK, ENOTSUP, ETIMEDOUT, ESTALE);
	printf("signal %d %d %d %d %d %d %d\n", SIGHUP, SIGINT, SIGKILL,
	    SIGTERM, SIGCHLD, SIGSTOP, SIGRTMAX);
	printf("fault %d %d %d %d %d %d %d %d %d %d\n", DTRACEFLT_UNKNOWN,
	    DTRACEFLT_BADADDR, DTRACEFLT_BADALIGN, DTRACEFLT_ILLOP,
	    DTRACEFLT_DIVZERO, DTRACEFLT_NOSCRATCH, DTRACEFLT_KPRIV,
	    DTRACEFLT_UPRIV, DTRACEFLT_TUPOFLOW, DTRACEFLT_BADSTACK);
	printf("regs %d %d %d %d %d %d %d\n", R_GS, R_PC, R_SP, R_R0,
	    R_R15, R_RIP, R_RSP);
	p = (char *)0;
	printf("null %d %d %d %d\n", NULL == 0, p == NULL, sizeof (NULL),
	    (int)NULL);
	exit(0);
}
