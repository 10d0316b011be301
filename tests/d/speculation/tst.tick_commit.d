/*
 * ASSERTION: on a tick probe each firing speculates its own line and
 * keeps it only when a condition holds: even ticks are committed, odd
 * ones discarded.
 */
#pragma D option quiet
#pragma D option nspec=8

int n;

profile:::tick-100
/n < 6/
{
	n++;
	s = speculation();
}

profile:::tick-100
/s != 0/
{
	speculate(s);
	printf("tick %d\n", n);
}

profile:::tick-100
/s != 0 && n % 2 == 0/
{
	commit(s);
	s = 0;
}

profile:::tick-100
/s != 0 && n % 2 == 1/
{
	discard(s);
	s = 0;
}

profile:::tick-100
/n >= 6/
{
	exit(0);
}
