/*
 * Asserts D_DECL_IDRED: AF_INET is already an inline of the D library
 * (inet_ntop's address family), so redeclaring it is an error.
 */
inline int AF_INET = 2;

BEGIN
{
	exit(0);
}
