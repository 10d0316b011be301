/*
 * Asserts D_PRINTF_ARG_TYPE: an aggregation's value is an integer: %@s is refused.
 */
BEGIN
{
	@a = count();
	printa("%@s", @a);
}
