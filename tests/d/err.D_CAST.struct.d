/*
 * Asserts D_CAST: a struct cannot be cast to an integer.
 */
struct s { int a; };
struct s v;
BEGIN
{
	trace((int)v);
}
