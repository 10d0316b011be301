/*
 * Asserts D_DEREF_NONPTR: only pointers can be dereferenced.
 */
BEGIN
{
	trace(*pid);
}
