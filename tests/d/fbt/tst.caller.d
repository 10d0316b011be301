/*
 * ASSERTION: caller at an fbt probe is the call site in the calling
 * function: bench_calls' loop (bench_loop) calls bench_fbt three times.
 */
/* @@options: -q -c 'bench_calls -q fbt 3' */
fbt::bench_fbt:entry,
fbt::bench_fbt:return
{
	@[probename, func(caller)] = count();
}
