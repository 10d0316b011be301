/*
 * Asserts D_MACRO_UNDEF: $1 without a first argument is undefined.
 */
BEGIN
{
	trace($1);
}
