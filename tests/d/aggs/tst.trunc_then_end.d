/*
 * ASSERTION: a key removed by trunc() starts afresh when it gets data
 * again: only END's sum remains.
 */
#pragma D option quiet

BEGIN
{
	@["k"] = sum(100);
	@["gone"] = sum(1);
	trunc(@);
	exit(0);
}

END
{
	@["k"] = sum(5);
}
