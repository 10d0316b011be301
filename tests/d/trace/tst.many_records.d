/*
 * ASSERTION: records from 300 firings of a busy probe, drained across
 * several buffer switches, all print, once each and in order.
 */
#pragma D option quiet

int n;

profile:::tick-1000
/n < 300/
{
	printf("%d\n", ++n);
}

profile:::tick-1000
/n == 300/
{
	exit(0);
}
