/*
 * Asserts D_DESTRUCT: freopen() may overwrite files, so it is a destructive
 * action and needs -w.
 */
BEGIN
{
	freopen("/tmp/out");
}
