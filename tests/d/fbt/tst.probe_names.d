/*
 * ASSERTION: fbt probes are named fbt:kernel:<function>:entry|return.
 */
/* @@options: -q -c 'bench_calls -q fbt 1' */
fbt::bench_fbt:entry,
fbt::bench_fbt:return
{
	printf("%s:%s:%s:%s\n", probeprov, probemod, probefunc, probename);
}
