/*
 * Asserts D_PROTO_ARG: setopt needs string constants.
 */
BEGIN
{
	setopt(1);
}
