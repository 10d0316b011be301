/*
 * ASSERTION: an aggregation with 50 keys fed from 200 firings: every
 * key counts 4, so the entries print in key order (unsigned 8-byte keys).
 */
#pragma D option quiet

int n;

profile:::tick-1000
/n < 200/
{
	n++;
	@[(long)(n % 50)] = count();
}

profile:::tick-1000
/n == 200/
{
	exit(0);
}
