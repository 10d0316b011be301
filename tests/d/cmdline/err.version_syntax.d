/*
 * ASSERTION: -x version= with a string that is not a version is refused
 * before anything is compiled, with libdtrace's message; status 1.
 * @@options: -x version=1.x
 */
BEGIN
{
	exit(0);
}
