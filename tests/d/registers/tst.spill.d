/*
 * ASSERTION: a right-nested expression deeper than the seven DIF registers
 * whose operands have side effects (so they may not be reordered) compiles
 * by spilling the held left operands to clause-local slots, and computes
 * the value of the usual left-to-right order: each left operand is read
 * before the assignments and increments to its right run.
 */
#pragma D option quiet

BEGIN
{
	a = 1;
	/* eleven 1s read before a++ (1, then a is 2) */
	x = a + (a + (a + (a + (a + (a + (a + (a + (a + (a + (a + a++))))))))));
	printf("%d %d\n", x, a);
	/* 10-(1-(10-(1-(10-(1-(10-(1-(10-(b = 3))))))))), b assigned last */
	c = 10;
	b = 1;
	y = c - (b - (c - (b - (c - (b - (c - (b - (c - (b = 3)))))))));
	printf("%d %d\n", y, b);
	exit(0);
}
