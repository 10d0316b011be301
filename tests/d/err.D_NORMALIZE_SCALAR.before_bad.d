/*
 * Asserts D_NORMALIZE_SCALAR: normalize()'s factor is checked before whether
 * the aggregation was ever assigned (DTrace's order).
 */
BEGIN
{
	normalize(@nosuch[1], "x");
}
