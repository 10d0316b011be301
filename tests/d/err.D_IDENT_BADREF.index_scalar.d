/*
 * Asserts D_IDENT_BADREF: a scalar variable cannot be indexed.
 */
BEGIN
{
	x = 1;
	x[2] = 3;
}
