/*
 * Asserts D_PROTO_LEN: inet_ntop( ) takes an address family and an address.
 */
BEGIN
{
	trace(inet_ntop((void *)arg0));
}
