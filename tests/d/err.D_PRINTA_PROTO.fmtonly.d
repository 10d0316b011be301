/*
 * Asserts D_PRINTA_PROTO: printa() with a format still needs an aggregation.
 */
BEGIN
{
	printa("%d");
}
