/*
 * Asserts D_MACRO_UNDEF: $target is undefined without -c or -p.
 */
BEGIN
/pid == $target/
{
	trace(1);
}
