/*
 * Asserts D_PRAGMA_OPTSET: agghist is not an option Sonde has (count() and
 * sum() as histograms are not printed), so it is refused.
 */
#pragma D option agghist

BEGIN
{
	exit(0);
}
