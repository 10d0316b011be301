/*
 * Asserts D_DECL_IDRED: a typedef name cannot be reused.
 */
typedef int myint;
typedef char myint;
BEGIN
{
	trace(1);
}
