/*
 * Asserts D_SYNTAX: likewise with a [ still open.
 */
BEGIN
/ x[1 /
{
	trace(1);
}
