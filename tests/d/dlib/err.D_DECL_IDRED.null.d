/*
 * ASSERTION: NULL comes from the D library; a program may not define it
 * again.
 */
inline int NULL = 1;

BEGIN
{
	exit(0);
}
