/*
 * Asserts D_PROTO_LEN: mutex_owned( ) takes exactly one argument.
 */
BEGIN
{
	trace(mutex_owned());
}
