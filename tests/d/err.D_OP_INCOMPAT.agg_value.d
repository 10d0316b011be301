/*
 * Asserts D_OP_INCOMPAT: an aggregation is not a value; as in DTrace, @a has a
 * dynamic type that no variable can take.
 */
BEGIN
{
	@a = count();
	x = @a;
}
