/*
 * Asserts D_ALLOCA_INCOMPAT: a variable that held an alloca()'d pointer
 * may not later hold another pointer, even in another clause.
 */
BEGIN
{
	buf = (char *)alloca(16);
}

BEGIN
{
	buf = (char *)curthread + 8;
}
