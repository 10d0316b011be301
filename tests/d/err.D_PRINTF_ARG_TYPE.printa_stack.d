/*
 * Asserts D_PRINTF_ARG_TYPE: %s cannot print a stack() key; %k can.
 */
BEGIN
{
	@a[stack()] = count();
	printa("%s %@d\n", @a);
}
