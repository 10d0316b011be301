/*
 * Asserts D_PROTO_ARG: an aggregation keyed by stack() keeps that key kind.
 */
BEGIN
{
	@[stack()] = count();
	@[1] = count();
}
