/*
 * ASSERTION: an inline may not take the name of an action or subroutine.
 */
inline int trace = 3;

BEGIN
{
	exit(0);
}
