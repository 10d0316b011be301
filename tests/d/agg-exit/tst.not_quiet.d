/*
 * ASSERTION: without quiet, the aggregation still prints after the
 * records and the closing newline, with no probe prefix.
 */
BEGIN
{
	@n["k"] = sum(42);
	exit(0);
}
