/*
 * Asserts D_DESTRUCT: chill() is destructive and needs -w.
 */
BEGIN
{
	chill(100);
}
