/*
 * ASSERTION: a dynamic variable space too small for a new associative
 * array element (with nothing deleted that could be recycled) drops the
 * store, counted as a dynamic variable drop; exit status 0.
 * @@options: -x dynvarsize=8
 */
#pragma D option quiet

BEGIN
{
	a[1] = 1;
	a[2] = 2;
	a[3] = 3;
	exit(0);
}
