/*
 * Asserts D_ALLOCA_INCOMPAT: a char * that held an alloca()'d pointer may
 * not be pointed at a string constant (a string variable, which holds a
 * copy, may take either).
 */
BEGIN
{
	s = "abc";
	p = (char *)alloca(4);
	s = p;
	p = "abc";
}
