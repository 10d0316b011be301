/*
 * ASSERTION: a declaration that declares nothing (no declarator, no tag)
 * is useless.
 */
extern int;

BEGIN
{
	exit(0);
}
