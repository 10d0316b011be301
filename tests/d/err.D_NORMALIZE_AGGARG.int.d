/*
 * Asserts D_NORMALIZE_AGGARG: normalize() needs an aggregation.
 */
BEGIN
{
	normalize(1, 2);
}
