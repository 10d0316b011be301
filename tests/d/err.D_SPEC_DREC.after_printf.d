/*
 * Asserts D_SPEC_DREC: speculate() may not follow a data-recording action.
 */
BEGIN
{
	printf("x");
	speculate(1);
}
