/*
 * Asserts D_PRINTF_ARG_TYPE: printa() checks its conversions against the aggregation's keys (%d on a string key).
 */
BEGIN
{
	@a[execname] = count();
	printa("%d %@d\n", @a);
}
