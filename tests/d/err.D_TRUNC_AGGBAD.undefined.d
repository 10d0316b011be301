/*
 * Asserts D_TRUNC_AGGBAD: trunc() of an aggregation never assigned.
 * (@nosuch[1] names it without assigning it; a bare unknown @nosuch is
 * D_IDENT_UNDEF, as in DTrace).
 */
BEGIN
{
	trunc(@nosuch[1], 1);
}
