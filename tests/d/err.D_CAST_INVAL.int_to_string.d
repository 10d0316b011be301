/*
 * Asserts D_CAST_INVAL: an integer cannot be cast to a string.
 */
BEGIN
{
	trace((string)pid);
}
