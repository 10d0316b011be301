/*
 * ASSERTION: lquantize() at the edges: values below the base and at or
 * above the limit land in the "< base" and ">= limit" rows, shown only
 * with a zero row beside the first and last non-zero ones; a range around
 * zero; negative weights; an empty histogram (counts cancelled) prints
 * its first three rows.
 */
#pragma D option quiet

BEGIN
{
	@l = lquantize(-100, -10, 10, 5); @l = lquantize(100, -10, 10, 5);
	@l = lquantize(0, -10, 10, 5); @l = lquantize(-6, -10, 10, 5);
	@in = lquantize(3, 0, 100, 10); @in = lquantize(42, 0, 100, 10);
	@w = lquantize(3, 0, 10, 1, -2); @w = lquantize(5, 0, 10, 1, 4);
	@e = lquantize(3, 0, 10, 1, 2); @e = lquantize(3, 0, 10, 1, -2);
	printa(@l);
	printa(@in);
	printa(@w);
	printa(@e);
	exit(0);
}
