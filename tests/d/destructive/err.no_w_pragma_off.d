/*
 * Asserts that without -w enabling refuses it (DTrace's "could not enable
 * tracing: Destructive actions not allowed", exit status 1; it compiles):
 * raise() is destructive: without -w (or the destructive option) it is
 * refused, even with other options set.
 * @@exit: 1
 */
#pragma D option quiet
BEGIN
{
	raise(9);
}
