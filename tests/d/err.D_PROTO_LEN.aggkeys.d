/*
 * Asserts D_PROTO_LEN: an aggregation keeps its number of keys.
 */
BEGIN
{
	@a[1] = count();
	@a[1, 2] = count();
}
