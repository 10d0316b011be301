/*
 * Asserts D_CAST: a string cannot be cast to an integer.
 */
BEGIN
{
	trace((int)execname);
}
