/*
 * Asserts D_PRINTF_ARG_PROTO: printa() conversions beyond the keys have no value.
 */
BEGIN
{
	@a[1] = count();
	printa("%d %d %@d", @a);
}
