/*
 * ASSERTION: a parameter of a function declaration may not have a dynamic
 * type such as an associative array.
 */
int f(int a[int]);

BEGIN
{
	exit(0);
}
