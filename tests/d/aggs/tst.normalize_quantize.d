/*
 * ASSERTION: a normalized histogram prints each count divided by the
 * normal, but its rows and bars come from the raw counts: raw counts 3
 * and 1 normalized by 2 print as 1 and 0 with bars of 30 and 10 columns,
 * and the row of the bucket whose count became 0 is still shown.
 */
#pragma D option quiet

BEGIN
{
	@q = quantize(1, 3);
	@q = quantize(4, 1);
	normalize(@q, 2);
	exit(0);
}
