/*
 * ASSERTION: tracing continues after faults in a busy probe: each of
 * the first five firings faults and fires ERROR, then the sixth exits.
 * (stderr, which names the profile probe's id, is not compared.)
 */
#pragma D option quiet

int n, errs;

profile:::tick-1000
/n < 5/
{
	n++;
	x = *(int *)0;
}

ERROR
{
	errs++;
}

profile:::tick-1000
/n == 5/
{
	n++;
	exit(0);
}

END
{
	printf("errors %d\n", errs);
}
