/*
 * Asserts D_IDENT_UNDEF: the value assigned to an aggregation is checked
 * (an unknown name) before it is found not to be an aggregating function.
 */
BEGIN
{
	@a = y;
}
