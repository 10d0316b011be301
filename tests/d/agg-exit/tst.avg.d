/*
 * ASSERTION: avg() prints the integer quotient of sum by count,
 * truncated toward zero, and sorts by it.
 */
#pragma D option quiet

BEGIN
{
	@a["x"] = avg(1);
	@a["x"] = avg(2);
	@a["y"] = avg(10);
	@a["y"] = avg(20);
	@a["y"] = avg(31);
	@a["z"] = avg(-3);
	@a["z"] = avg(-4);
	exit(0);
}
