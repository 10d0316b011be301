/*
 * ASSERTION: raise() with a signal number beyond the last is an illegal
 * operation; a valid signal to a kernel thread (every Sonde thread) does
 * nothing, and stop() likewise: the clause goes on.
 */
/* @@options: -w -q */
BEGIN
{
	raise(9);
	stop();
	printf("raise(9) and stop() went on\n");
}

BEGIN
{
	raise(1000);
	printf("not reached\n");
}

ERROR
{
	printf("ERROR: epid %d action %d fault %d\n", arg1, arg2, arg4);
	exit(0);
}
