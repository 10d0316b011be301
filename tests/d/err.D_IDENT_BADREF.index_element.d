/*
 * Asserts D_IDENT_BADREF: an integer array element cannot be indexed again (found by the fuzzer).
 */
BEGIN
{
	a[6] = 2;
	a[2][2];
}
