/*
 * Asserts D_MACRO_UNDEF: $$3 without a third argument is undefined.
 */
BEGIN
{
	trace($$3);
}
