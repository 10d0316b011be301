/*
 * Asserts D_VAR_UNDEF: a clause-local variable read before it is assigned.
 */
BEGIN
{
	trace(this->x);
	this->x = 1;
}
