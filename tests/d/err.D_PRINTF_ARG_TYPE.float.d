/*
 * Asserts D_PRINTF_ARG_TYPE: %f takes a float, double or long double, and
 * an integer is none of these (D converts nothing to floating point).
 */
BEGIN
{
	printf("%f", 1);
}
