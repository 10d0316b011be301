/*
 * ASSERTION: when a speculative buffer fills, the records that fit are
 * kept and the one that does not is dropped and counted: the commit
 * prints the small record and standard error reports 1 speculative drop.
 */
#pragma D option quiet
#pragma D option specsize=200

BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("small %d\n", 1);
}

BEGIN
{
	speculate(s);
	printf("big %s\n", "a string record takes strsize bytes");
}

BEGIN
{
	commit(s);
}

BEGIN
{
	exit(0);
}
