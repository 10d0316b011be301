/*
 * Asserts D_PROTO_ARG: speculate needs an integer.
 */
BEGIN
{
	speculate("x");
}
