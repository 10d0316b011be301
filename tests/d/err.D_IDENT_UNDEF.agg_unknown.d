/*
 * Asserts D_IDENT_UNDEF: an aggregation never assigned is an unknown name.
 */
BEGIN
{
	trace(@nosuch);
}
