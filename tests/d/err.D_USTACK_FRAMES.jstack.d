/*
 * Asserts D_USTACK_FRAMES: jstack() takes ustack()'s arguments, the frame
 * count first, a positive constant.
 */
BEGIN
{
	jstack(0);
}
