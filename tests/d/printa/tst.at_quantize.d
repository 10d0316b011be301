/*
 * ASSERTION: %@d of a quantize() aggregation prints the whole histogram
 * in place: its header (starting with a newline) and its rows, with no
 * blank line after the last row; the format's text follows directly.
 */
#pragma D option quiet

BEGIN
{
	@q["k"] = quantize(3);
	printa("<%s>%@d</>\n", @q);
	exit(0);
}
