/*
 * Asserts D_ALLOCA_INCOMPAT: ?: with an alloca()'d branch and another
 * pointer branch may not be assigned.
 */
BEGIN
{
	this->a = (char *)alloca(1);
	this->b = arg0 ? this->a : (char *)curthread;
}
