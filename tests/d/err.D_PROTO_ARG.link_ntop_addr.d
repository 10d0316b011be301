/*
 * Asserts D_PROTO_ARG: link_ntop( ) argument #2 is a pointer.
 */
BEGIN
{
	trace(link_ntop(ARPHRD_ETHER, arg0));
}
