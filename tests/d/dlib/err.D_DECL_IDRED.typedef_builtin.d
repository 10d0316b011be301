/*
 * ASSERTION: a typedef may not take the name of a built-in variable.
 */
typedef int timestamp;

BEGIN
{
	exit(0);
}
