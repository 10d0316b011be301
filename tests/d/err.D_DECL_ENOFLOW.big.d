/*
 * Asserts D_DECL_ENOFLOW: an enumerator must fit in an int.
 */
enum e { A = 0x100000000 };
BEGIN
{
	trace(1);
}
