/*
 * Asserts D_SPEC_SPEC: speculate() may not follow speculate().
 */
BEGIN
{
	speculate(1);
	speculate(2);
}
