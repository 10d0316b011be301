/*
 * ASSERTION: without quiet, a clause that only aggregates records
 * nothing, so it prints no probe line; the aggregation prints at exit
 * after the newline.
 */
BEGIN
{
	@a = count();
	@b["k"] = sum(2);
}

BEGIN
{
	exit(0);
}
