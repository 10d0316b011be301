/*
 * Asserts D_VAR_UNDEF: a thread-local variable read before anything in the
 * program assigned or declared it.
 */
BEGIN
{
	trace(self->x);
}
