/*
 * Asserts D_ARR_BADREF: an associative array must be indexed.
 */
BEGIN
{
	a[1] = 2;
	trace(a);
}
