/*
 * Asserts D_LQUANT_LIMTYPE: lquantize's limit must be a constant.
 */
BEGIN
{
	@a = lquantize(1, 0, pid);
}
