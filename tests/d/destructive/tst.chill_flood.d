/*
 * ASSERTION: a chill() on every profile firing cannot keep the CPUs chilled:
 * past 500 ms in a second each call fails with an illegal operation
 * (DTRACEFLT_ILLOP through the ERROR probe; the messages on stderr are
 * counted by timing, so no .err), interrupts run, the tick fires and exit()
 * ends the consumer.
 */
/* @@options: -w -q */
/* @@timeout: 90 */
int seen;

profile-4999
{
	chill(500000000);
}

dtrace:::ERROR
/arg4 == 3/
{
	seen = 1;
}

tick-2s
{
	printf("alive; illegal operations seen: %d\n", seen);
	exit(0);
}
