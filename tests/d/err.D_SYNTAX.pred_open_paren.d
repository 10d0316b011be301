/*
 * Asserts D_SYNTAX: a predicate that ends with a ( still open is DTrace's
 * "closing ) expected in predicate before /".
 */
BEGIN
/ (1 == 1 /
{
	trace(1);
}
