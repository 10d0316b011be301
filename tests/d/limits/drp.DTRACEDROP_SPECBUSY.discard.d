/*
 * ASSERTION: a discarded speculation is free again only once the cleaner
 * has run, so a speculation() in the same firing finds the only buffer
 * busy: "failed speculation (available buffer(s) still busy)"; exit 0.
 * @@options: -x nspec=1
 */
#pragma D option quiet

BEGIN
{
	s = speculation();
	discard(s);
	t = speculation();
	exit(0);
}
