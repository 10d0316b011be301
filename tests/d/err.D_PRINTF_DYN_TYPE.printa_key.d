/*
 * Asserts D_PRINTF_DYN_TYPE: in printa() a * width takes the next key, which must be
 * an integer.
 */
BEGIN
{
	@a["k"] = count();
	printa("%*@d", @a);
}
