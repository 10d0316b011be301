/*
 * Asserts D_PROTO_ARG: an array keeps its key types.
 */
BEGIN
{
	a[1] = 2;
	a["x"] = 3;
}
