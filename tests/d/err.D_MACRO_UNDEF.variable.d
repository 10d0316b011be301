/*
 * Asserts D_MACRO_UNDEF: $name is a macro variable, and DTrace calls it
 * one ("macro variable $nonesuch is not defined").
 */
BEGIN
{
	trace($nonesuch);
}
