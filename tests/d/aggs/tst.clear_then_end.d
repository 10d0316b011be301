/*
 * ASSERTION: after clear() an entry counts again from zero: two counts,
 * clear(), and one more count in END leave 1.
 */
#pragma D option quiet

BEGIN
{
	@c = count();
	@c = count();
	clear(@c);
	exit(0);
}

END
{
	@c = count();
}
