/*
 * Task 4: count the calls of bench_fbt whose argument is even; the
 * predicate is one and, one comparison.
 */
#pragma D option quiet

fbt::bench_fbt:entry
/(arg0 & 1) == 0/
{
	@ = count();
}
