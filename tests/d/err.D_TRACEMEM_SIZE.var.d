/*
 * Asserts D_TRACEMEM_SIZE: tracemem()'s size must be a constant.
 */
BEGIN
{
	tracemem(arg0, pid);
}
