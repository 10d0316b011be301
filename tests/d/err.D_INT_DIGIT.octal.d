/*
 * Asserts D_INT_DIGIT: 8 is not an octal digit.
 */
BEGIN
{
	trace(0128);
}
