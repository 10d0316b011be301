/*
 * ASSERTION: sizeof may not be applied to a function (C's rule): *fp of
 * a function pointer has no size.
 */
int (*fp)(int);

BEGIN
{
	trace(sizeof (*fp));
	exit(0);
}
