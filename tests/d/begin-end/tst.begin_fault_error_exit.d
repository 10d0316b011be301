/*
 * ASSERTION: a fault in BEGIN is not fatal when an ERROR clause calls
 * exit(): the ERROR clause runs, then END, and exit()'s status is dtrace's.
 */
/* @@exit: 3 */
#pragma D option quiet

BEGIN
{
	x = *(int *)0;
}

ERROR
{
	printf("error %d\n", arg4);
	exit(3);
}

END
{
	printf("end\n");
}
