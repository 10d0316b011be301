/*
 * Task 6: a division by a variable that is 0 at run time (a constant 0
 * would be refused by the compiler, D_DIV_ZERO).
 */
#pragma D option quiet

BEGIN
{
	zero = 0;
	x = 1 / zero;
}

BEGIN
{
	printf("still here\n");
	exit(0);
}
