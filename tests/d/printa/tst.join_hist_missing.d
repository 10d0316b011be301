/*
 * ASSERTION: in a joined printa(), a histogram missing for a key prints
 * as an empty histogram (the rows -1, 0 and 1 with zero counts).
 */
#pragma D option quiet

BEGIN
{
	@c["has"] = count();
	@c["lacks"] = count();
	@q["has"] = quantize(8);
	printa("%s %@d%@d\n", @c, @q);
	exit(0);
}
