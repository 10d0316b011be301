/*
 * Asserts D_SYNTAX: a comment does not nest; DTrace reports the inner
 * opener, on its own line (8 here).
 */
BEGIN
{
	/* outer
	   /* inner */
	trace(1);
}
