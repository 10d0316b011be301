/*
 * ASSERTION: trunc() keeps the largest values even when aggsortkey
 * orders the printing by key: trunc(@, 2) keeps "a" (9) and "c" (5),
 * printed in key order.
 */
#pragma D option quiet
#pragma D option aggsortkey

BEGIN
{
	@["a"] = sum(9);
	@["b"] = sum(1);
	@["c"] = sum(5);
	@["d"] = sum(2);
	trunc(@, 2);
	exit(0);
}
