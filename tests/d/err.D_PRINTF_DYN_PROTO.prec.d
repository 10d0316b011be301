/*
 * Asserts D_PRINTF_DYN_PROTO: so does a .* precision after the width.
 */
BEGIN
{
	printf("%*.*d", 1);
}
