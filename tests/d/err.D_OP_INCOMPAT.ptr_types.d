/*
 * Asserts D_OP_INCOMPAT: a pointer variable takes only pointers to the
 * same type (or void *): an int * variable may not be given a char *.
 */
BEGIN
{
	p = (int *)alloca(8);
	p = (char *)alloca(8);
}
