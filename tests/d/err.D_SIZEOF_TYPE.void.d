/*
 * Asserts D_SIZEOF_TYPE: sizeof cannot be applied to void.
 */
BEGIN
{
	trace(sizeof (void));
}
