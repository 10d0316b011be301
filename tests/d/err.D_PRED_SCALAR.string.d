/*
 * Asserts D_PRED_SCALAR: a predicate must be a scalar, not a string.
 */
BEGIN
/execname/
{
	trace(1);
}
