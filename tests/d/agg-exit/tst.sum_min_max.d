/*
 * ASSERTION: sum(), min() and max() with negative and positive values;
 * values sort as signed 64-bit; aggregations print in declaration order.
 */
#pragma D option quiet

BEGIN
{
	@sum["a"] = sum(10);
	@sum["a"] = sum(-25);
	@sum["b"] = sum(3);
	@min["a"] = min(5);
	@min["a"] = min(-7);
	@min["a"] = min(2);
	@min["b"] = min(100);
	@max["a"] = max(5);
	@max["a"] = max(-7);
	@max["a"] = max(2);
	@max["b"] = max(-100);
	exit(0);
}
