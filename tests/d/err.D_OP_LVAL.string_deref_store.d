/*
 * ASSERTION: *s reads a string's first char but is not an lvalue: a
 * string is changed by assigning a whole string.
 */

BEGIN
{
	s = "abc";
	*s = 0x41;
}
