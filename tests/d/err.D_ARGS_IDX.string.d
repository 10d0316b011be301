/*
 * Asserts D_ARGS_IDX: an args[] index must be an integer.
 */
BEGIN
{
	trace(args["x"]);
}
