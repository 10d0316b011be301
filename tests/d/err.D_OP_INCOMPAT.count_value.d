/*
 * Asserts D_OP_INCOMPAT: count() outside an aggregation has a dynamic type
 * that no variable can take (as @a does).
 */
BEGIN
{
	x = count();
}
