/*
 * ASSERTION: a function pointer's prototype follows a function's: void
 * must be its sole parameter.
 */
int (*fp)(int, void);

BEGIN
{
	exit(0);
}
