/*
 * ASSERTION: DTrace frees a discarded speculation asynchronously (its
 * buffer is "discarding" until the cleaner runs at cleanrate), even when
 * nothing was speculated to it: with nspec=1, a speculation() right after
 * discard() fails as busy and returns 0, counted in its own words; by the
 * next tick-100ms the cleaner (101 Hz by default) has freed it.
 * @@options: -x nspec=1
 */
#pragma D option quiet

BEGIN
{
	s = speculation();
	discard(s);
	t = speculation();
	printf("first %d, then %d\n", s, t);
}

tick-100ms
{
	printf("later %d\n", speculation());
	exit(0);
}
