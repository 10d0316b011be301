/*
 * ASSERTION: 50 tick firings counted by n % 7 give exact per-key counts:
 * residue 1 eight times, every other residue seven times.
 */
#pragma D option quiet

int n;

profile:::tick-1000
/n < 50/
{
	n++;
	@[n % 7] = count();
}

profile:::tick-1000
/n >= 50/
{
	exit(0);
}
