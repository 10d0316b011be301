/*
 * Asserts D_SYNTAX: every conversion is parsed before any argument is checked,
 * so the undefined second one is reported, not the missing first value.
 */
BEGIN
{
	printf("%d %v");
}
