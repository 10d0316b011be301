/*
 * ASSERTION: a speculative record that does not fit the speculation
 * buffer (specsize) is dropped, counted as a speculative drop; exit 0.
 * @@options: -x specsize=16
 */
#pragma D option quiet

BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("%d %d %d\n", 1, 2, 3);
}

BEGIN
{
	commit(s);
}

BEGIN
{
	exit(0);
}
