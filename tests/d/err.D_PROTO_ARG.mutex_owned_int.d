/*
 * Asserts D_PROTO_ARG: mutex_owned( ) takes a kmutex_t *, and an integer
 * that is not the constant 0 is not one.
 */
BEGIN
{
	trace(mutex_owned(arg0));
}
