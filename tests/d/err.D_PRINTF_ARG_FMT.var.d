/*
 * Asserts D_PRINTF_ARG_FMT: printf()'s format must be a constant, not a variable.
 */
BEGIN
{
	printf(execname);
}
