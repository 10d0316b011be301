/*
 * Asserts D_PRAGMA_OPTSET: aggpack is not an option Sonde has (its packed
 * histograms are not printed), so it is refused, not accepted and ignored.
 */
#pragma D option aggpack

BEGIN
{
	exit(0);
}
