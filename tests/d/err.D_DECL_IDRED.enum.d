/*
 * Asserts D_DECL_IDRED: an enumerator cannot be redeclared.
 */
enum e { A, B };
enum f { B };
BEGIN
{
	trace(1);
}
