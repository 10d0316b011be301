/*
 * Asserts D_PROTO_ARG: progenyof() takes a pid_t, as DTrace prints it.
 */
BEGIN
{
	trace(progenyof("init"));
}
