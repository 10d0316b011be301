/*
 * Asserts D_DECL_ARRBIG: an array larger than 16 MiB is rejected.
 */
long a[0x100000][4];
BEGIN
{
	trace(1);
}
