/*
 * ASSERTION: entries with equal values are ordered by key: strings
 * bytewise, integers as unsigned (so -2 sorts after 2).
 */
#pragma D option quiet

BEGIN
{
	@s["pear"] = sum(5);
	@s["apple"] = sum(5);
	@s["Zebra"] = sum(5);
	@s["fig"] = sum(1);
	@i[2] = sum(7);
	@i[-2] = sum(7);
	@i[0] = sum(7);
	@i[100] = sum(3);
	exit(0);
}
