/*
 * Asserts D_PROTO_ARG: getmajor( ) takes a dev_t.
 */
BEGIN
{
	trace(getmajor("sd0"));
}
