/*
 * Asserts D_ARR_LOCAL: clause-local variables cannot be associative arrays.
 */
BEGIN
{
	this->a[1] = 2;
}
