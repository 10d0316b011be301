/*
 * Asserts D_OP_WRITE: memory reached through a built-in (arg0), not a
 * D variable, is not writable.
 */
struct s { int a; };
BEGIN
{
	((struct s *)arg0)->a = 1;
}
