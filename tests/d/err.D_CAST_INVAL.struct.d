/*
 * Asserts D_CAST_INVAL: a struct cannot be cast to an integer.
 */
struct s { int a; };
struct s v;
BEGIN
{
	trace((int)v);
}
