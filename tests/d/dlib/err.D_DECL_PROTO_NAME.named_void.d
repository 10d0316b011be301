/*
 * ASSERTION: a void parameter may not have a name.
 */
int f(void v);

BEGIN
{
	exit(0);
}
