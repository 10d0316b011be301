/*
 * Asserts D_DESTRUCT: panic() is destructive and needs -w.
 */
BEGIN
{
	panic();
}
