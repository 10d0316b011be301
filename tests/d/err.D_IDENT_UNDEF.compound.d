/*
 * Asserts D_IDENT_UNDEF: x += 1 on an undefined x fails.
 */
BEGIN
{
	x += 1;
}
