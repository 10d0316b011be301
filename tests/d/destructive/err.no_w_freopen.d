/*
 * Asserts that without -w enabling refuses it (DTrace's "could not enable
 * tracing: Destructive actions not allowed", exit status 1; it compiles):
 * freopen() may overwrite files, so it is a destructive
 * action and needs -w.
 * @@exit: 1
 */
BEGIN
{
	freopen("/tmp/out");
}
