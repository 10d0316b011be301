/*
 * ASSERTION: a string compares with NULL only by == and != (an address
 * test); an ordering against NULL is refused.
 */

BEGIN
{
	s = "abc";
	trace(s < NULL);
}
