/*
 * Asserts D_TRACEMEM_DYNSIZE: tracemem()'s third argument (the bytes to
 * show) must be an integer.
 */
BEGIN
{
	tracemem(arg0, 8, "four");
}
