/*
 * ASSERTION: printa() after trunc() shows only the entries kept, and the
 * variable trunc count comes from an expression.
 */
#pragma D option quiet

BEGIN
{
	@[1] = sum(10);
	@[2] = sum(20);
	@[3] = sum(30);
	@[4] = sum(40);
	n = 3;
	trunc(@, n - 1);
	printa("%d %@d\n", @);
	exit(0);
}
