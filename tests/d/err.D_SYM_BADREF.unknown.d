/*
 * Asserts D_SYM_BADREF: `ticks names no kernel symbol (Sonde's kernel has
 * no such variable), so it cannot be resolved.
 */
BEGIN
{
	trace(`ticks);
}
