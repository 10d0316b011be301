/*
 * Asserts D_IDENT_BADREF: an associative array must be indexed.
 */
BEGIN
{
	a[1] = 2;
	trace(a);
}
