/*
 * ASSERTION: clear() zeroes every value but keeps the keys: printa()
 * after clear() prints each key with 0, in key order (all values tie).
 */
#pragma D option quiet

BEGIN
{
	@c["b"] = count();
	@c["a"] = count();
	@c["a"] = count();
	@c["c"] = count();
	printa(@c);
	clear(@c);
	printa(@c);
	exit(0);
}
