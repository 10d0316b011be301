/*
 * ASSERTION: %@d of an llquantize() aggregation prints its histogram in
 * place in the format.
 */
#pragma D option quiet

BEGIN
{
	@l = llquantize(20, 10, 1, 2, 10);
	@l = llquantize(25, 10, 1, 2, 10);
	printa("llquantize:%@d", @l);
	printf("end\n");
	exit(0);
}
