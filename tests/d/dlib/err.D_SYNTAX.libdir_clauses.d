/*
 * ASSERTION: -x libdir= names the directory the D library is read from,
 * and a library file may not hold probe clauses: the script library
 * (scripts/*.d, all clauses) is no D library.
 * @@options: -x libdir=scripts
 */
BEGIN
{
	exit(0);
}
