/*
 * Asserts D_TYPE_MEMBER: the kernel's struct thread has no member t_nope.
 */
BEGIN
{
	trace(curthread->t_nope);
}
