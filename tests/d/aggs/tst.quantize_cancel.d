/*
 * ASSERTION: increments that cancel leave a histogram entry with no data:
 * it is still printed, with the rows -1, 0 and 1 at zero.
 */
#pragma D option quiet

BEGIN
{
	@q = quantize(5, 3);
	@q = quantize(5, -3);
	exit(0);
}
