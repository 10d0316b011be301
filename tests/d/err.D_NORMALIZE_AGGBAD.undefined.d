/*
 * Asserts D_NORMALIZE_AGGBAD: normalize() of an aggregation never assigned.
 * (@nosuch[1] names it without assigning it; a bare unknown @nosuch is
 * D_IDENT_UNDEF, as in DTrace).
 */
BEGIN
{
	normalize(@nosuch[1], 2);
}
