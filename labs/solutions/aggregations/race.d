/*
 * Task 4: the same firings counted twice: by count(), kept per CPU, and
 * by a global variable that every CPU increments (a load, an add and a
 * store, not atomic: two CPUs can both load N and both store N + 1).
 */
#pragma D option quiet

profile-4999
{
	@c = count();
	shared++;
}

tick-1s
{
	exit(0);
}

END
{
	printa("count %@d\n", @c);
	printf("global %d\n", shared);
}
