/*
 * ASSERTION: an array may not have associative arrays as elements.
 */
int a[2][int];

BEGIN
{
	exit(0);
}
