/*
 * Asserts D_PROTO_ARG: inet_ntoa( ) takes an ipaddr_t * (a uint32_t *); a
 * uint8_t * must be cast first.
 */
BEGIN
{
	trace(inet_ntoa((uint8_t *)arg0));
}
