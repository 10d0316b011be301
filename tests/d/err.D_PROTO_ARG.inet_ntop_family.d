/*
 * Asserts D_PROTO_ARG: inet_ntop( ) argument #1, the address family, is an
 * integer.
 */
BEGIN
{
	trace(inet_ntop("AF_INET", (void *)arg0));
}
