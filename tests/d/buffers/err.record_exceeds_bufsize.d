/*
 * ASSERTION: DTrace refuses to enable a program when one of its records
 * can never fit in the principal buffer (-b 64, and trace() of a string
 * takes strsize bytes): "could not enable tracing: Enabling exceeds size
 * of buffer", after the matched notice, with exit status 1, instead of
 * tracing on and dropping that record at every firing.
 * @@options: -b 64
 */
BEGIN
{
	trace("a string record is as long as strsize, 256 bytes");
}

BEGIN
{
	exit(0);
}
