/*
 * Asserts D_DECL_LONGINT: after long alone, a typedef name is the type
 * (DTrace checks the specifier: a typedef name is not an integer).
 */
typedef int myint;
typedef long myint;
BEGIN
{
	trace(1);
}
