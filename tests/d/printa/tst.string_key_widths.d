/*
 * ASSERTION: string keys in a printa() format take width and alignment;
 * a value conversion may come between two key conversions.
 */
#pragma D option quiet

BEGIN
{
	@a["vfs", "read"] = sum(12);
	@a["net", "send"] = sum(7);
	printa("%-6s|%@4d|%10s|\n", @a);
	exit(0);
}
