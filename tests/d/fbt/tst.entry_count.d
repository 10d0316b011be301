/*
 * ASSERTION: an fbt entry probe fires once per call: bench_calls calls
 * bench_fbt ten times.
 */
/* @@options: -q -c 'bench_calls -q fbt 10' */
fbt::bench_fbt:entry
{
	@ = count();
}
