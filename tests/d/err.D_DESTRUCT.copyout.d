/*
 * Asserts D_DESTRUCT: copyout() is destructive and needs -w.
 */
BEGIN
{
	copyout(0, 0, 0);
}
