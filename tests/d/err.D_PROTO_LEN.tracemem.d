/*
 * Asserts D_PROTO_LEN: tracemem takes two arguments.
 */
BEGIN
{
	tracemem(arg0);
}
