/*
 * Asserts D_PRINTA_AGGBAD: printa() of an aggregation never assigned.
 * (@nosuch[1] names it without assigning it; a bare unknown @nosuch is
 * D_IDENT_UNDEF, as in DTrace).
 */
BEGIN
{
	printa(@nosuch[1]);
}
