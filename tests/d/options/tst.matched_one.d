/*
 * ASSERTION: one matching probe is "matched 1 probe" (singular).
 */
BEGIN
{
	exit(0);
}
