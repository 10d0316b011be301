/*
 * ASSERTION: each kind of loss is counted and reported in its own words,
 * with its tag under -x droptags: an aggregation update that does not fit
 * aggsize, a dynamic variable store that does not fit dynvarsize (which,
 * however small, holds one variable, as in DTrace: a["key"] gets it), a
 * speculative record that does not fit specsize, and speculation() with
 * no free buffer; what fits is still traced.
 * @@options: -x droptags -x aggsize=8 -x dynvarsize=8 -x specsize=8 -x nspec=1
 */
#pragma D option quiet

BEGIN
{
	@ = count();
	a["key"] = 1;
	self->x = 2;
	s = speculation();
	t = speculation();
}

BEGIN
/s != 0/
{
	speculate(s);
	printf("%d does not fit in specsize\n", 12345);
}

BEGIN
{
	printf("traced: t %d\n", t);
	exit(0);
}
