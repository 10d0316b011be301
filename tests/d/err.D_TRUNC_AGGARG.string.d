/*
 * Asserts D_TRUNC_AGGARG: trunc() needs an aggregation.
 */
BEGIN
{
	trunc("x");
}
