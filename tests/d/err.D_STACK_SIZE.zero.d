/*
 * Asserts D_STACK_SIZE: stack()'s frame count must be positive.
 */
BEGIN
{
	stack(0);
}
