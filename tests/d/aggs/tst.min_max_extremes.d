/*
 * ASSERTION: min() and max() reach the INT64 extremes: INT64_MIN is the
 * smallest minimum, INT64_MAX the largest maximum, and a single value is
 * both the minimum and the maximum.
 */
#pragma D option quiet

BEGIN
{
	@mn["extreme"] = min(0x7fffffffffffffff);
	@mn["extreme"] = min((long long)0x8000000000000000);
	@mn["single"] = min(0x7fffffffffffffff);
	@mx["extreme"] = max((long long)0x8000000000000000);
	@mx["extreme"] = max(0x7fffffffffffffff);
	@mx["single"] = max((long long)0x8000000000000000);
	exit(0);
}
