/*
 * Asserts D_OP_DYN: ?: does not take aggregations (values of dynamic type).
 */
BEGIN
{
	@a = count();
	x = 1 ? @a : @a;
}
