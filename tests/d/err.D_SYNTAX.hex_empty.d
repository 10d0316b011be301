/*
 * Asserts D_SYNTAX: 0x with no hex digit is the constant 0 then the
 * identifier x, as DTrace reads it (syntax error near "x").
 */
BEGIN
{
	trace(0x);
}
