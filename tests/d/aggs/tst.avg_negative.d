/*
 * ASSERTION: avg() prints the integer quotient sum/count, truncated toward
 * zero (also for negative averages), and entries sort by that quotient.
 */
#pragma D option quiet

BEGIN
{
	@a["ten"] = avg(10);
	@a["ten"] = avg(11);
	@a["ten"] = avg(11);
	@a["neg"] = avg(-1);
	@a["neg"] = avg(-2);
	@a["zero"] = avg(5);
	@a["zero"] = avg(-5);
	@a["big"] = avg(1000000000000);
	@a["big"] = avg(3000000000000);
	exit(0);
}
