/*
 * Asserts D_TRUNC_AGGBAD: trunc() of an aggregation never assigned.
 */
BEGIN
{
	trunc(@nosuch, 1);
}
