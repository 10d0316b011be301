/*
 * ASSERTION: an associative array declared again must have the same key
 * types.
 */
int a[int];
int a[string];

BEGIN
{
	exit(0);
}
