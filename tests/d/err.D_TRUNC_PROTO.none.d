/*
 * Asserts D_TRUNC_PROTO: trunc() needs an argument.
 */
BEGIN
{
	trunc();
}
