/*
 * Asserts D_DECL_TYPERED: a struct cannot be defined twice.
 */
struct s { int a; };
struct s { int b; };
BEGIN
{
	trace(1);
}
