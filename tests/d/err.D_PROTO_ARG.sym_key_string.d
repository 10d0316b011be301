/*
 * Asserts D_PROTO_ARG: a sym() key needs an address.
 */
BEGIN
{
	@[sym(execname)] = count();
}
