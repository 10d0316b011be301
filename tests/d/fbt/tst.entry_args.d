/*
 * ASSERTION: entry probes see the function's arguments: bench_fbt(i) is
 * called for i = 0..9, so arg0 sums to 45; predicates on arguments select
 * calls (arg0 > 5: four of them).
 */
/* @@options: -q -c 'bench_calls -q fbt 10' */
fbt::bench_fbt:entry
{
	@sum = sum(arg0);
}

fbt::bench_fbt:entry
/arg0 > 5/
{
	@big = count();
}

END
{
	printa("sum %@d\n", @sum);
	printa("big %@d\n", @big);
}
