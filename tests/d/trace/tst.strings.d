/*
 * ASSERTION: trace() of strings, not quiet: each in "  %-33s"; a
 * string longer than the field is printed whole; the empty string
 * is all padding.
 */
BEGIN
{
	trace("short");
	trace("");
	trace("a string that is longer than thirty-three characters");
	exit(0);
}
