/*
 * ASSERTION: chill() is bounded per CPU: 500 ms of chill in each one-second
 * interval, counted over every call (the Dynamic Tracing Guide's example:
 * chill(250000000); chill(250000001) fails in the second call with an
 * illegal operation, reported through the ERROR probe as DTRACEFLT_ILLOP).
 */
/* @@options: -w -q */
BEGIN
{
	chill(250000000);
	chill(250000001);
	printf("not reached\n");
}

ERROR
{
	printf("ERROR: epid %d action %d fault %d\n", arg1, arg2, arg4);
	exit(0);
}
