/*
 * Asserts D_CAST: an integer cannot be cast to a string.
 */
BEGIN
{
	trace((string)pid);
}
