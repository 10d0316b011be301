/*
 * ASSERTION: llquantize(value, 10, 1, 3, 10) starts at 10: smaller values
 * count in "< 10" (printed as the first row), larger than 9999 in
 * ">= 10000" (the last row, after the 9000 bucket).
 */
#pragma D option quiet

BEGIN
{
	@low = llquantize(5, 10, 1, 3, 10);
	@low = llquantize(15, 10, 1, 3, 10);
	@high = llquantize(99999, 10, 1, 3, 10);
	exit(0);
}
