/*
 * Asserts D_SYNTAX: DTrace has no %hhd conversion (its table stops at h).
 */
BEGIN
{
	printf("%hhd", (char)1);
}
