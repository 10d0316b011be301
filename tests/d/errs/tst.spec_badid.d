/*
 * ASSERTION: commit(), discard() and speculate() of an id that
 * speculation() can never return (above nspec) are illegal operations,
 * reported as DTrace reports a fault (the speculate() clause records
 * nothing); id 0, what a failed speculation() returns, is ignored.
 */
#pragma D option quiet

BEGIN
{
	commit(99);
}

BEGIN
{
	discard(7);
}

BEGIN
{
	commit(0);
	discard(0);
}

BEGIN
{
	speculate(42);
	printf("not printed\n");
}

BEGIN
{
	printf("done\n");
	exit(0);
}
