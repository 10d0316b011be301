/*
 * Asserts D_PRAGCTL_INVAL: an unknown control directive is rejected.
 */
#define X 1
BEGIN
{
	trace(1);
}
