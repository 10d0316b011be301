/*
 * Asserts D_ADDROF_VAR: the address of a D variable cannot be taken.
 */
BEGIN
{
	x = 1;
	trace(&x);
}
