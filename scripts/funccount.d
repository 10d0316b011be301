/*
 * funccount.d - count calls to every kernel function that fbt can probe,
 * by function name; printed (fewest first) on Ctrl-C or at the end of the
 * -c command.  Thousands of probes: a good test of the zero-effect claim,
 * since they all go back to their original bytes when tracing stops.
 *
 *   sonde# dtrace -s /scripts/funccount.d -c 'run pingpong 100; sleep 2'
 */
fbt:::entry
{
	@calls[probefunc] = count();
}
