/*
 * Asserts D_STACK_SIZE: stack()'s frame count must be a constant.
 */
BEGIN
{
	stack(pid);
}
