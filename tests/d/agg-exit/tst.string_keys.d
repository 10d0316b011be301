/*
 * ASSERTION: string keys print in "  %-50s"; entries are sorted by
 * value ascending.
 */
#pragma D option quiet

BEGIN
{
	@c["bravo"] = count();
	@c["bravo"] = count();
	@c["alpha"] = count();
	@c["charlie"] = count();
	@c["charlie"] = count();
	@c["charlie"] = count();
	exit(0);
}
