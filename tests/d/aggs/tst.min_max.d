/*
 * ASSERTION: min() and max() keep the smallest and largest value seen,
 * compared as signed 64-bit integers.
 */
#pragma D option quiet

BEGIN
{
	@mn["a"] = min(5);
	@mn["a"] = min(-3);
	@mn["a"] = min(7);
	@mn["b"] = min(100);
	@mn["b"] = min(200);
	@mx["a"] = max(5);
	@mx["a"] = max(-3);
	@mx["a"] = max(7);
	@mx["b"] = max(-100);
	@mx["b"] = max(-200);
	exit(0);
}
