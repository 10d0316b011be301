/*
 * ASSERTION: only = and += may be applied to a bag-> member.
 */
BEGIN
{
	bag->n -= 1;
}
