/*
 * ASSERTION: a profile-N probe fires on the CPU with probemod and
 * probefunc empty.  (It fires on every CPU: the predicate keeps CPU 0's
 * firing, so the output is the same whatever the number of CPUs.)
 */
#pragma D option quiet

profile:::profile-997
/cpu == 0/
{
	printf("[%s] [%s] [%s] [%s] cpu %d\n", probeprov, probemod, probefunc,
	    probename, cpu);
	exit(0);
}
