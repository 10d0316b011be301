/*
 * Asserts D_PROTO_LEN: count takes no argument.
 */
BEGIN
{
	@a = count(1);
}
