/*
 * Asserts D_STACK_SIZE: a stack() key's frame count must be a constant.
 */
BEGIN
{
	@[stack(pid)] = count();
}
