/*
 * Asserts D_SYM_BADREF: the kernel has no symbol no_such_symbol.
 */
BEGIN
{
	trace(`no_such_symbol);
}
