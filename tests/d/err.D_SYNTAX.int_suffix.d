/*
 * Asserts D_SYNTAX: a constant ends where its digits and u/l suffix end,
 * as DTrace reads it: 12abc is 12 then abc (syntax error near "abc").
 */
BEGIN
{
	trace(12abc);
}
