/*
 * ASSERTION: stddev() entries sort by their standard deviation, not by
 * sum or count.
 */
#pragma D option quiet

BEGIN
{
	@["wide"] = stddev(0);
	@["wide"] = stddev(100);
	@["narrow"] = stddev(1000);
	@["narrow"] = stddev(1002);
	@["flat"] = stddev(5000);
	@["flat"] = stddev(5000);
	@["flat"] = stddev(5000);
	exit(0);
}
