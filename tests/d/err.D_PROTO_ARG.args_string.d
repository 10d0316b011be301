/*
 * Asserts D_PROTO_ARG: an args[] index must be an integer.
 */
BEGIN
{
	trace(args["x"]);
}
