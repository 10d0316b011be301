/*
 * ASSERTION: integer keys compare as unsigned, so with equal values
 * @[-2] sorts after @[2] and after @[100], and -1 after -2.
 */
#pragma D option quiet

BEGIN
{
	@[-1] = sum(7);
	@[2] = sum(7);
	@[-2] = sum(7);
	@[100] = sum(7);
	@[0] = sum(7);
	exit(0);
}
