/*
 * ASSERTION: BEGIN and END fire in the context of the dtrace command: its
 * execname is "dtrace" and its pid is the same, nonzero, in both (a kernel
 * thread's pid is 0); walltimestamp is wall-clock time (ns since 1970: after
 * 2020-01-01, before 2100) and does not go back; vtimestamp is the thread's
 * virtual time: positive and not beyond timestamp (time since boot).
 */
#pragma D option quiet

BEGIN
{
	p = pid;
	w = walltimestamp;
	printf("BEGIN %s %d\n", execname, pid != 0);
	printf("wall %d %d\n", walltimestamp > 1577836800000000000, walltimestamp < 4102444800000000000);
	printf("vtime %d\n", vtimestamp > 0 && vtimestamp <= timestamp);
	v = vtimestamp;
}

BEGIN
{
	printf("vtime still %d\n", vtimestamp == v);
	exit(0);
}

END
{
	printf("END %s %d %d\n", execname, pid == p, walltimestamp >= w);
}
