/*
 * Asserts D_SYM_NOTYPES: kernel symbols have no type information without CTF.
 */
BEGIN
{
	trace(`ticks);
}
