/*
 * ASSERTION: a predicate may name a variable its own body assigns, but
 * not one that nothing before it or in its body creates.
 */
BEGIN
/y == 0/
{
	x = 1;
}
