/*
 * Asserts D_PROTO_ARG: lquantize()'s increment (argument #5) must be a scalar
 * (DTrace checks the increment with the prototype tag).
 */
BEGIN
{
	@a = lquantize(1, 0, 10, 1, "x");
}
