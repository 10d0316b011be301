/*
 * ASSERTION: an array may not have void elements.
 */
void a[2];

BEGIN
{
	exit(0);
}
