/*
 * Asserts D_DEREF_NONPTR: curthread->t_tid is an integer; * cannot be
 * applied to it.
 */
BEGIN
{
	trace(*curthread->t_tid);
}
