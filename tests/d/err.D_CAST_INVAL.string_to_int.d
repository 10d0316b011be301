/*
 * Asserts D_CAST_INVAL: a string cannot be cast to an integer.
 */
BEGIN
{
	trace((int)execname);
}
