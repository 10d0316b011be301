/*
 * Asserts D_PRINT_VOID: print( ) needs a value, and a void expression has
 * none.
 */
BEGIN
{
	print((void)0);
}
