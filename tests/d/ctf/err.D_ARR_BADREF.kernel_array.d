/*
 * Asserts D_ARR_BADREF: curthread->t_name is a char [32]; a constant
 * index past its end is refused.
 */
BEGIN
{
	trace(curthread->t_name[32]);
}
