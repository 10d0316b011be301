/*
 * Asserts D_SIZEOF_TYPE: sizeof cannot be applied to an incomplete struct.
 */
BEGIN
{
	trace(sizeof (struct nosuch));
}
