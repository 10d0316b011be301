/*
 * Asserts D_TRACEMEM_ARGS: tracemem takes at most three arguments.
 */
BEGIN
{
	tracemem(arg0, 8, 4, 2);
}
