/*
 * ASSERTION: the aggsortpos option is accepted; with a single
 * aggregation it changes nothing (entries still sort by value).
 */
#pragma D option quiet
#pragma D option aggsortpos=1

BEGIN
{
	@["x"] = sum(3);
	@["y"] = sum(1);
	@["z"] = sum(2);
	exit(0);
}
