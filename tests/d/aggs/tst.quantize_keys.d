/*
 * ASSERTION: a keyed histogram prints the key line first; the header's
 * leading newline ends it; a blank line follows each histogram; entries
 * sort by the sum of bucket value x count (so "small" before "large"
 * although "large" was created first).
 */
#pragma D option quiet

BEGIN
{
	@q["large"] = quantize(1000);
	@q["small"] = quantize(1);
	@q["small"] = quantize(1);
	exit(0);
}
