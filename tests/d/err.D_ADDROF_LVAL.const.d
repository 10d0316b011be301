/*
 * Asserts D_ADDROF_LVAL: the address of a constant cannot be taken.
 */
BEGIN
{
	trace(&1);
}
