/*
 * Asserts D_PROTO_ARG: inet_ntoa( ) takes an ipaddr_t * (the address of the
 * address), not the address itself.
 */
BEGIN
{
	trace(inet_ntoa(0x0100007f));
}
