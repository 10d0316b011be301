/*
 * ASSERTION: stddev() of negative values uses their squares: -10 and 10
 * give 10, -3 -3 -3 gives 0, -1 and -9 give 4.
 */
#pragma D option quiet

BEGIN
{
	@sd["pm10"] = stddev(-10);
	@sd["pm10"] = stddev(10);
	@sd["same"] = stddev(-3);
	@sd["same"] = stddev(-3);
	@sd["same"] = stddev(-3);
	@sd["neg"] = stddev(-1);
	@sd["neg"] = stddev(-9);
	exit(0);
}
