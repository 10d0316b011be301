/*
 * Asserts D_OP_INCOMPAT: += on a string variable (DTrace: + and - take only
 * integers and pointers).
 */
BEGIN
{
	s = "a";
	s += 1;
}
