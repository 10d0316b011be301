/*
 * Asserts D_DESTRUCT: raise() is destructive and needs -w.
 */
BEGIN
{
	raise(9);
}
