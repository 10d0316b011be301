/*
 * Asserts D_PRINTA_AGGKEY: printa() of several aggregations needs the same
 * number of keys.
 */
BEGIN
{
	@a[1] = count();
	@b[1, 2] = count();
	printa(@a, @b);
}
