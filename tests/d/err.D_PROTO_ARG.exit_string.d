/*
 * Asserts D_PROTO_ARG: exit needs an integer.
 */
BEGIN
{
	exit("bye");
}
