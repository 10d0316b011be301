/*
 * ASSERTION: -x libdir= replaces the D library's directory: with one that
 * holds no library, NULL (the library's) is not defined.
 * @@options: -x libdir=nowhere
 */
BEGIN
{
	trace(NULL);
	exit(0);
}
