/*
 * Asserts D_INT_DIGIT: 0x needs at least one hex digit.
 */
BEGIN
{
	trace(0x);
}
