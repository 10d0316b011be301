/*
 * ASSERTION: when every bucket count is negative the bars are drawn
 * right-aligned, from the right, and end in "|"; zero rows are spaces
 * followed by "|".
 */
#pragma D option quiet

BEGIN
{
	@q = quantize(2, -1);
	@q = quantize(8, -3);
	exit(0);
}
