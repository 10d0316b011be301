/*
 * Asserts D_CLEAR_AGGARG: clear() needs an aggregation.
 */
BEGIN
{
	clear(1);
}
