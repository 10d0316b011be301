/*
 * ASSERTION: a thread-local declaration without a name is useless.
 */
self int;

BEGIN
{
	exit(0);
}
