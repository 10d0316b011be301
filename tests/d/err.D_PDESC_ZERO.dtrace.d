/*
 * Asserts D_PDESC_ZERO: the dtrace provider has only BEGIN, END and ERROR.
 */
dtrace:::MIDDLE
{
	trace(1);
}
