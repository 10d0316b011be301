/*
 * ASSERTION: printa() in END prints before the newline that the consumer
 * prints at exit; after that newline come the aggregations that were not
 * printed.
 */
#pragma D option quiet

BEGIN
{
	@a["k"] = count();
	@b["k"] = count();
	exit(0);
}

END
{
	printa("end: %s %@d\n", @a);
}
