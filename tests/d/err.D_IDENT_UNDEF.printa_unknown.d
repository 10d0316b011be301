/*
 * Asserts D_IDENT_UNDEF: printa() of an aggregation name never seen is an
 * unknown identifier, as in DTrace (the argument is cooked first).
 */
BEGIN
{
	printa(@nosuch);
}
