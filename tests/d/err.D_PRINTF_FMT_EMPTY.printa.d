/*
 * Asserts D_PRINTF_FMT_EMPTY: printa() may not have an empty format either.
 */
BEGIN
{
	@a = count();
	printa("", @a);
}
