/* Pins the DIF for: a predicate is its own DIFO. */
BEGIN
/pid > 0 && execname != "idle"/
{
	trace(pid);
}
