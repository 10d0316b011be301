/*
 * Asserts D_PROTO_ARG: quantize()'s increment (argument #2) must be a scalar.
 */
BEGIN
{
	@a = quantize(1, "a");
}
