/*
 * ASSERTION: a declarator may not use the scope operator (a kernel
 * symbol is not declared that way).
 */
int `xyz;

BEGIN
{
	exit(0);
}
