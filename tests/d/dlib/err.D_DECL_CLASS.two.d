/*
 * ASSERTION: a declaration has at most one storage class.
 */
self this int x;

BEGIN
{
	exit(0);
}
