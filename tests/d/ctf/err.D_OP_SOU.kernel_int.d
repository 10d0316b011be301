/*
 * Asserts D_OP_SOU: `ncpus is an int, so . cannot be applied to it.
 */
BEGIN
{
	trace(`ncpus.x);
}
