/*
 * ASSERTION: histogram bars are round(count * 40 / total) columns: with
 * counts 1 and 2 the bars are 13 and 27 columns; with 79 and 1 (a total
 * of 80) they are 40 (39.5 rounds up) and 1 (0.5 rounds up).
 */
#pragma D option quiet

BEGIN
{
	@a = quantize(1);
	@a = quantize(4);
	@a = quantize(4);
	@b = quantize(16, 79);
	@b = quantize(32);
	exit(0);
}
