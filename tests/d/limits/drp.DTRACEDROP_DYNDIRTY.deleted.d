/*
 * ASSERTION: a store that finds no free dynamic variable while deleted
 * ones wait for the cleaner is a drop "with non-empty dirty list" (a
 * faster cleanrate, not a bigger dynvarsize, would have helped).
 * @@options: -x dynvarsize=8
 */
#pragma D option quiet

BEGIN
{
	a[1] = 1;
	a[1] = 0;
	a[2] = 2;
	exit(0);
}
