/*
 * ASSERTION: when several kinds of loss are reported together, they come
 * in libdtrace's order for one round of work: the state's own counts
 * first (dynamic variable, speculative, failed speculations: busy before
 * unavailable), then the aggregation buffers', then the principal
 * buffers'.  Here: one dynamic variable drop, one unavailable speculation
 * (nspec=1, the buffer held) and then one busy (the buffer discarded),
 * one aggregation drop and one principal drop.
 * @@options: -x nspec=1 -x dynvarsize=8 -x aggsize=48 -b 48
 */
#pragma D option quiet

BEGIN
{
	a[1] = 1;
	a[2] = 2;
	s = speculation();
	t = speculation();
	discard(s);
	u = speculation();
	@x[1] = count();
	@x[2] = count();
}

BEGIN { trace(1); }
BEGIN { trace(2); }
BEGIN { trace(3); }
BEGIN { exit(0); }
