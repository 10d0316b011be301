/*
 * Asserts D_LQUANT_BASETYPE: lquantize's base must be a constant.
 */
BEGIN
{
	@a = lquantize(1, pid, 10);
}
