/*
 * ASSERTION: printa(@a) prints a newline and the entries at once and
 * marks @a printed, so only the other aggregation prints at exit.
 */
#pragma D option quiet

BEGIN
{
	@a["one"] = count();
	@b["two"] = count();
	printf("before\n");
	printa(@a);
	printf("after\n");
	exit(0);
}
