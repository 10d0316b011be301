/*
 * Asserts D_OP_LVAL: kernel memory (through a pointer) cannot be assigned.
 */
struct s { int a; };
BEGIN
{
	((struct s *)arg0)->a = 1;
}
