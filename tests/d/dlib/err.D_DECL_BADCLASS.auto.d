/*
 * ASSERTION: auto is a C storage class with no meaning in D.
 */
auto int x;

BEGIN
{
	exit(0);
}
