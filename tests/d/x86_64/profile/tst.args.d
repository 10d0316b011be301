/*
 * ASSERTION: profile probes are named profile:::profile-N, and arg0 is the
 * interrupted kernel PC (inside the kernel's text), arg1 the user PC (0:
 * there is no user mode yet).
 */
/* @@options: -q */
/* (cpu == 0: profile-N fires on every CPU, and a global is no lock.) */
int n;

profile-997
/cpu == 0 && n++ == 0/
{
	printf("%s:%s:%s:%s\n", probeprov, probemod, probefunc, probename);
	printf("arg0 %s\n", arg0 >= 0xffffffff80000000 ? "kernel" : "not kernel");
	printf("arg1 %d\n", arg1);
}

tick-100ms
{
	exit(0);
}
