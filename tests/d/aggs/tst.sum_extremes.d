/*
 * ASSERTION: sum() holds the INT64 extremes exactly and wraps around in
 * two's complement like DTrace's 64-bit arithmetic.
 */
#pragma D option quiet

BEGIN
{
	@s["max"] = sum(0x7fffffffffffffff);
	@s["min"] = sum((long long)0x8000000000000000);
	@s["wrap"] = sum(0x7fffffffffffffff);
	@s["wrap"] = sum(1);
	@s["minus1"] = sum(-1);
	exit(0);
}
