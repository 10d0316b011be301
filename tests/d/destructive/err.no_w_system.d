/*
 * Asserts that without -w enabling refuses it (DTrace's "could not enable
 * tracing: Destructive actions not allowed", exit status 1; it compiles):
 * system() is destructive and needs -w.
 * @@exit: 1
 */
BEGIN
{
	system("ls");
}
