/*
 * ASSERTION: -b with a suffix no size has (4q) is refused with
 * libdtrace's message, before anything is compiled; status 1.
 * @@options: -b 4q
 */
BEGIN
{
	exit(0);
}
