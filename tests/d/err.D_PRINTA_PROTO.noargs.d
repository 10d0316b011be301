/*
 * Asserts D_PRINTA_PROTO: printa() needs an aggregation.
 */
BEGIN
{
	printa();
}
