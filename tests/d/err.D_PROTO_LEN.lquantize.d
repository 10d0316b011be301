/*
 * Asserts D_PROTO_LEN: lquantize takes three or four arguments.
 */
BEGIN
{
	@a = lquantize(1, 0);
}
