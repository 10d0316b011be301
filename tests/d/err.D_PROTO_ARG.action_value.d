/*
 * Asserts D_PROTO_ARG: an action used as a value is checked against its
 * prototype first (exit takes an int).
 */
BEGIN
{
	x = exit("a");
}
