/*
 * ASSERTION: a profile-N probe fires on the CPU with probemod and
 * probefunc empty.
 */
#pragma D option quiet

profile:::profile-997
{
	printf("[%s] [%s] [%s] [%s] cpu %d\n", probeprov, probemod, probefunc,
	    probename, cpu);
	exit(0);
}
