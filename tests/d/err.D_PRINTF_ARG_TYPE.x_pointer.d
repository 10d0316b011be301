/*
 * Asserts D_PRINTF_ARG_TYPE: %x takes integers only (pointers go with %p).
 */
BEGIN
{
	printf("%x", (void *)0);
}
