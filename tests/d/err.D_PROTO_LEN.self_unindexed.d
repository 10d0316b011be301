/*
 * Asserts D_PROTO_LEN: a thread-local associative array named without its
 * keys is checked against them (0 keys passed, 1 expected), as in DTrace.
 */
BEGIN
{
	self->a[1] = 1;
	trace(self->a);
}
