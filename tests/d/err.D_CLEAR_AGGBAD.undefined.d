/*
 * Asserts D_CLEAR_AGGBAD: clear() of an aggregation never assigned.
 */
BEGIN
{
	clear(@nosuch);
}
