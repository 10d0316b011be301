/*
 * Asserts D_ALLOCA_INCOMPAT: the address of an element of alloca()'d
 * memory is an alloca()'d pointer too.
 */
BEGIN
{
	b = (char *)alloca(4);
	p = &b[1];
	p = (char *)curthread;
}
