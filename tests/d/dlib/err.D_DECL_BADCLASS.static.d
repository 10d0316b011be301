/*
 * ASSERTION: static is a C storage class with no meaning in D.
 */
static int x;

BEGIN
{
	exit(0);
}
