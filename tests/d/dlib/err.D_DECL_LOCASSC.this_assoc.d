/*
 * ASSERTION: clause-local variables may not be associative arrays, in a
 * declaration either.
 */
this int a[int];

BEGIN
{
	exit(0);
}
