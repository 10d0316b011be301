/*
 * Asserts D_DESTRUCT: stop() is destructive and needs -w.
 */
BEGIN
{
	stop();
}
