/*
 * Asserts D_OP_SCALAR: ! needs a scalar; in D a string is not one.
 */
BEGIN
{
	x = !"a";
}
