/*
 * Asserts D_ARGS_IDX: args[] has ten entries.
 */
BEGIN
{
	trace(args[12]);
}
