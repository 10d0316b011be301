/*
 * ASSERTION: aggregations fed by a tick probe hold exactly the firings
 * the program allows: ten ticks counted, summed, and quantized.
 */
#pragma D option quiet

int n;

profile:::tick-100
/n < 10/
{
	n++;
	@ticks = count();
	@total = sum(n);
	@q = lquantize(n, 0, 10, 5);
}

profile:::tick-100
/n >= 10/
{
	exit(0);
}
