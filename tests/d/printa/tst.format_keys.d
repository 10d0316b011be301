/*
 * ASSERTION: printa(fmt, @a): no leading newline; the plain conversions
 * take the key members in order and %@d the value; one line per entry,
 * sorted by value then key.
 */
#pragma D option quiet

BEGIN
{
	@a["read", 3] = sum(30);
	@a["write", 1] = sum(10);
	@a["open", 2] = sum(10);
	printa("%s/%d: %@d\n", @a);
	exit(0);
}
