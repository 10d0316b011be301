/*
 * Asserts D_DESTRUCT: system() is destructive and needs -w.
 */
BEGIN
{
	system("ls");
}
