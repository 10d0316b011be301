/*
 * Asserts D_IDENT_BADREF: a name first used as an array cannot be assigned as a scalar.
 */
BEGIN
{
	a[1] = 2;
	a = 3;
}
