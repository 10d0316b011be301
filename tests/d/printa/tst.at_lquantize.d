/*
 * ASSERTION: %@d of an lquantize() aggregation prints its histogram, with
 * the "< base" and ">= limit" rows, in place in the format.
 */
#pragma D option quiet

BEGIN
{
	@l = lquantize(-5, 0, 3);
	@l = lquantize(1, 0, 3);
	@l = lquantize(7, 0, 3);
	printa("lquantize:%@d", @l);
	printf("end\n");
	exit(0);
}
