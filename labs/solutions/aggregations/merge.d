/*
 * Task 2: two aggregations of the same firings, a count and an
 * lquantize() of the CPU; each CPU keeps its own partial results and the
 * consumer merges them, so the histogram's buckets add up to the count.
 */
#pragma D option quiet

profile-997
{
	@n = count();
	@q = lquantize(cpu, 0, 4, 1);
}

tick-1s
{
	exit(0);
}

END
{
	printa("total %@d\n", @n);
	printa(@q);
}
