/*
 * Asserts D_SYNTAX: provider definitions are not supported.
 */
provider foo { probe bar(); };
BEGIN
{
	trace(1);
}
