/*
 * ASSERTION: trace() of strings, not quiet: each in "  %-33s"; a
 * string longer than the field is printed whole.  (An empty string is
 * left out: DTrace prints a zero-filled record as a hex dump.)
 */
BEGIN
{
	trace("short");
	trace("x y");
	trace("a string that is longer than thirty-three characters");
	exit(0);
}
