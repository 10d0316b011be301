/*
 * Asserts D_PROTO_LEN: print( ) takes exactly one argument.
 */
BEGIN
{
	print();
}
