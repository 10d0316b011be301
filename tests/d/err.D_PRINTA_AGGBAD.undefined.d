/*
 * Asserts D_PRINTA_AGGBAD: printa() of an aggregation never assigned.
 */
BEGIN
{
	printa(@nosuch);
}
