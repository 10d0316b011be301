/*
 * Asserts D_PROTO_ARG.getmajor_string.d: getmajor( ) takes a dev_t.
 */
BEGIN
{
	trace(getmajor("sd0"));
}
