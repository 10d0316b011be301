/*
 * ASSERTION: a program that depends on a library file the D library does
 * not have fails to compile; one it has (sched.d) is fine.
 */
#pragma D depends_on library sched.d
#pragma D depends_on library nosuch.d

BEGIN
{
	exit(0);
}
