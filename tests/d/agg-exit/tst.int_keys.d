/*
 * ASSERTION: integer keys print by their width: 4-byte " %8d", 8-byte
 * " %16lld", 2-byte " %5d", 1-byte " %3d".
 */
#pragma D option quiet

BEGIN
{
	@four[(int)-5] = count();
	@eight[123456789012LL] = count();
	@two[(short)300] = count();
	@one[(char)65] = count();
	exit(0);
}
