/*
 * ASSERTION: an array declaration needs a dimension or a tuple signature.
 */
int a[];

BEGIN
{
	exit(0);
}
