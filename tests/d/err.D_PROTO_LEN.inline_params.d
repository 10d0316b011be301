/*
 * ASSERTION: an inline with parameters used with the wrong number of
 * arguments is refused.
 */
inline int sq[int x] = x * x;

BEGIN
{
	trace(sq[1, 2]);
}
