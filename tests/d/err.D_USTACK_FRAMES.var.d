/*
 * Asserts D_USTACK_FRAMES: ustack()'s frame count must be a constant.
 */
BEGIN
{
	ustack(pid);
}
