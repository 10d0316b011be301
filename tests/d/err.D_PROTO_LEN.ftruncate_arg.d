/*
 * Asserts D_PROTO_LEN: ftruncate() takes no arguments.
 */
BEGIN
{
	ftruncate(1);
}
