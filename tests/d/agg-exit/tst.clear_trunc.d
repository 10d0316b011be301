/*
 * ASSERTION: trunc(@a) removes all entries; clear(@b) zeroes values but
 * keeps the keys, so @b prints its keys with 0.
 */
#pragma D option quiet

BEGIN
{
	@a["gone"] = count();
	@b["kept"] = count();
	trunc(@a);
	clear(@b);
	exit(0);
}
