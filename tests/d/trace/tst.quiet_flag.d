/*
 * ASSERTION: -q is quiet: no header, no probe prefix, no "matched"
 * notice, trace() unpadded.
 * @@options: -q
 */
BEGIN
{
	trace(42);
	trace(" ");
	trace("x");
	trace("\n");
	exit(0);
}
