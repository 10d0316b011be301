/*
 * ASSERTION: entries sort by value ascending (signed: negative sums
 * first) and only ties fall back to the key.
 */
#pragma D option quiet

BEGIN
{
	@["z"] = sum(-5);
	@["y"] = sum(3);
	@["x"] = sum(3);
	@["w"] = sum(100);
	@["v"] = sum(-6);
	exit(0);
}
