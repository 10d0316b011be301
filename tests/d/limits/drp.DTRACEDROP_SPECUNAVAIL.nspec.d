/*
 * ASSERTION: speculation() with every buffer in use (nspec=1, the first
 * never committed) fails: "failed speculation (no speculative buffer
 * available)", and returns 0; exit 0.
 * @@options: -x nspec=1
 */
#pragma D option quiet

BEGIN
{
	s = speculation();
	t = speculation();
	exit(0);
}
