/*
 * Asserts D_NORMALIZE_AGGBAD: normalize() of an aggregation never assigned.
 */
BEGIN
{
	normalize(@nosuch, 2);
}
