/*
 * Asserts D_CLEAR_AGGBAD: clear() of an aggregation never assigned.
 * (@nosuch[1] names it without assigning it; a bare unknown @nosuch is
 * D_IDENT_UNDEF, as in DTrace).
 */
BEGIN
{
	clear(@nosuch[1]);
}
