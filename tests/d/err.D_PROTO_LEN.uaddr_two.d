/*
 * Asserts D_PROTO_LEN: uaddr() takes one argument (DTrace's prototype).
 */
BEGIN
{
	uaddr(1, 2);
}
