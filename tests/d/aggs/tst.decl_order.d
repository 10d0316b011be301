/*
 * ASSERTION: at exit aggregations print in the order they first appear
 * in the program, not in the order they got data, and one after the
 * other without blank lines between them.
 */
#pragma D option quiet

BEGIN
/0/
{
	@first = count();
}

BEGIN
{
	@second = sum(2);
	@third["k"] = max(3);
	@first = count();
	exit(0);
}
