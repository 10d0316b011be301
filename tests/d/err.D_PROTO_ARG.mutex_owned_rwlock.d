/*
 * Asserts D_PROTO_ARG: mutex_owned( ) takes a kmutex_t *; a pointer to
 * another type (a krwlock_t *) is not one (a void * would be).
 */
BEGIN
{
	trace(mutex_owned((krwlock_t *)arg0));
}
