/*
 * Asserts D_PROTO_ARG: an aggregation keeps its key types.
 */
BEGIN
{
	@a[1] = count();
	@a["x"] = count();
}
