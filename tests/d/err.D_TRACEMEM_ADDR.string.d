/*
 * Asserts D_TRACEMEM_ADDR: tracemem() needs an address.
 */
BEGIN
{
	tracemem(execname, 10);
}
