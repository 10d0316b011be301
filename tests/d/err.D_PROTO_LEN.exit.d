/*
 * Asserts D_PROTO_LEN: exit takes one argument.
 */
BEGIN
{
	exit();
}
