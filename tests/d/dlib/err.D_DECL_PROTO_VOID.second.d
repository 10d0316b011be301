/*
 * ASSERTION: void as a parameter type must be the only parameter.
 */
int f(int, void);

BEGIN
{
	exit(0);
}
