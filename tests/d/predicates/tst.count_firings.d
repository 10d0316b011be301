/*
 * ASSERTION: a predicate on a counter limits a busy probe to exactly
 * the first N firings.
 */
#pragma D option quiet

int n;

profile:::tick-1000
/n < 5/
{
	n++;
	printf("firing %d\n", n);
}

profile:::tick-1000
/n == 5/
{
	exit(0);
}
