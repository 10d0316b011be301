/*
 * ASSERTION: not quiet, printa(@a) output follows the probe prefix: its
 * leading newline ends the prefix line, then the entries, then the
 * record's own newline (a blank line), then the closing newline; @a is
 * not printed again.
 */
BEGIN
{
	@a["one"] = count();
	printa(@a);
	exit(0);
}
