/*
 * ASSERTION: a key first seen in the second aggregation of a join gets
 * one row, with the third aggregation's value for it too; rows tied on
 * the first value are ordered by the next one (z before y), and a key
 * in none but the last still gets its row.
 */
#pragma D option quiet

BEGIN
{
	@a["x"] = sum(1);
	@b["y"] = sum(2);
	@c["y"] = sum(3);
	@c["z"] = sum(1);
	@b["x"] = sum(1);
	printa("%s %@d %@d %@d\n", @a, @b, @c);
	exit(0);
}
