/*
 * Asserts D_ACT_SPEC: a destructive action may not follow speculate().
 */
#pragma D option destructive
BEGIN
{
	speculate(1);
	chill(10);
}
