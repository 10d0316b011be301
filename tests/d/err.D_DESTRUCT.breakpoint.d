/*
 * Asserts D_DESTRUCT: breakpoint() is destructive and needs -w.
 */
BEGIN
{
	breakpoint();
}
