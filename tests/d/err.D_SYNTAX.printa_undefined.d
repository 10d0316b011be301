/*
 * Asserts D_SYNTAX: printa() formats are parsed like printf's.
 */
BEGIN
{
	@a = count();
	printa("%v %@d", @a);
}
