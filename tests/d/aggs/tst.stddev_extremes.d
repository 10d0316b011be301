/*
 * ASSERTION: stddev() is printed unsigned (" %16llu"): INT64_MIN twice
 * (whose sum wraps to 0, so the average is 0) gives 2^63,
 * 9223372036854775808, which does not fit a signed 64-bit value.
 */
#pragma D option quiet

BEGIN
{
	@sd = stddev((long long)0x8000000000000000);
	@sd = stddev((long long)0x8000000000000000);
	exit(0);
}
