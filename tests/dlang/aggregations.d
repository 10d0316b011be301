/* Pins the DIF for: aggregations: keys then values, lquantize's parameters are constants. */
BEGIN
{
	@c[execname, pid] = count();
	@s = sum(arg0);
	@l = lquantize(arg1, 0, 100, 10);
	printa("%s %d %@d\n", @c);
}
