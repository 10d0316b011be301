/*
 * ASSERTION: exit() from a profile probe ends tracing after a fixed
 * number of firings; END sees the final count and the status is exit()'s.
 * @@exit: 1
 */
#pragma D option quiet

int n;

profile:::tick-1000
/++n == 3/
{
	printf("tick %d\n", n);
	exit(1);
}

END
{
	printf("end n=%d\n", n);
}
