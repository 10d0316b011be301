/*
 * ASSERTION: normalize() applies to count(), min(), max() and avg()
 * values as well: each is divided by the normal.
 */
#pragma D option quiet

BEGIN
{
	@c = count();
	@c = count();
	@c = count();
	@c = count();
	@mn = min(70);
	@mx = max(-70);
	@av = avg(40);
	@av = avg(60);
	normalize(@c, 2);
	normalize(@mn, 7);
	normalize(@mx, 7);
	normalize(@av, 5);
	exit(0);
}
