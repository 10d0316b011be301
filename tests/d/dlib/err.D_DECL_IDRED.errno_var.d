/*
 * ASSERTION: the D library's errno names are identifiers of every
 * program: declaring a variable EPERM is a redeclaration.
 */
int EPERM;

BEGIN
{
	exit(0);
}
