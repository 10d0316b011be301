/*
 * Asserts D_PRINTA_AGGPROTO: printa() of several aggregations needs keys of
 * the same types (an integer key and a string key do not join).
 */
BEGIN
{
	@a[1] = count();
	@b["x"] = count();
	printa(@a, @b);
}
