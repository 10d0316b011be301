/*
 * Asserts D_SYNTAX: two descriptions on one line need a comma between them.
 */
BEGIN END
{
	trace(1);
}
