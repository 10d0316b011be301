/*
 * Asserts D_OP_LVAL: ++ is not supported on a struct member (use += 1).
 */
struct s { int a; };
struct s v;
BEGIN
{
	v.a++;
}
