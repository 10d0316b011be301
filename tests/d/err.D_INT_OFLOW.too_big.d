/*
 * Asserts D_INT_OFLOW: an integer constant wider than 64 bits overflows.
 */
BEGIN
{
	trace(0x12345678123456781);
}
