/*
 * Asserts D_PROTO_LEN: an array keeps its number of keys.
 */
BEGIN
{
	a[1] = 2;
	a[1, 2] = 3;
}
