/*
 * Asserts D_DESTRUCT: copyoutstr() is destructive and needs -w.
 */
BEGIN
{
	copyoutstr("x", 0, 2);
}
