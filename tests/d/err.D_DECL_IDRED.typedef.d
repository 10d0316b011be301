/*
 * Asserts D_DECL_IDRED: a typedef name cannot be reused.
 */
typedef int myint;
typedef long myint;
BEGIN
{
	trace(1);
}
