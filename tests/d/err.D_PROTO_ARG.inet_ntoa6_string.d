/*
 * Asserts D_PROTO_ARG: inet_ntoa6( ) takes an in6_addr_t *, not a string.
 */
BEGIN
{
	trace(inet_ntoa6("::1"));
}
