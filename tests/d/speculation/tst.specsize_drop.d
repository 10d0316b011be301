/*
 * ASSERTION: data that does not fit in specsize is dropped from the
 * speculation and counted as a speculative drop: the commit brings out
 * nothing and standard error says "1 speculative drop".
 */
#pragma D option quiet
#pragma D option specsize=16

BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("%s\n", "this record is much larger than sixteen bytes");
}

BEGIN
{
	commit(s);
}

BEGIN
{
	printf("plain\n");
	exit(0);
}
