/*
 * Asserts D_PROTO_ARG: the call assigned to an aggregation is checked against
 * its prototype before it is found not to be an aggregating function.
 */
BEGIN
{
	@a = strlen(1);
}
