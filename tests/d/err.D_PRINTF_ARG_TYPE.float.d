/*
 * Asserts D_PRINTF_ARG_TYPE: Sonde has no floating point.
 */
BEGIN
{
	printf("%f", 1);
}
