/*
 * Asserts D_ADDROF_VAR: an associative array element is a dynamic variable without an address.
 */
BEGIN
{
	a[1] = 2;
	trace(&a[1]);
}
