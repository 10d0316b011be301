/*
 * ASSERTION: an aggregation buffer too small for a new key drops the
 * update, counted as an aggregation drop ("N aggregation drops on CPU C");
 * tracing goes on and the exit status is 0.
 * @@options: -x aggsize=64
 */
#pragma D option quiet

BEGIN
{
	@a[1, 2, 3] = count();
	@a[4, 5, 6] = count();
	@a[7, 8, 9] = count();
	exit(0);
}
