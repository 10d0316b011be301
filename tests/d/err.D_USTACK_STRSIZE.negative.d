/*
 * Asserts D_USTACK_STRSIZE: ustack()'s string size may not be negative.
 */
BEGIN
{
	ustack(1, -1);
}
