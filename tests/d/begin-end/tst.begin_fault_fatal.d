/*
 * ASSERTION: a fault in BEGIN that no clause answers with exit() is fatal:
 * dtrace reports the error on standard error and exits with status 1 at
 * once, no other probe fires (the tick never does) and END does not fire.
 */
/* @@exit: 1 */
#pragma D option quiet

BEGIN
{
	printf("begin\n");
	trace(*(int *)0);
}

tick-1ms
{
	printf("tick\n");
}

END
{
	printf("end\n");
}
