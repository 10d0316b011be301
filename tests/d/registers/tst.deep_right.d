/*
 * ASSERTION: a right-nested expression deeper than the seven DIF registers
 * compiles (the generator evaluates the deeper operand first instead of
 * failing with "Insufficient registers") and computes the same value as
 * the usual order: subtraction and division keep their operand order.
 */
#pragma D option quiet

BEGIN
{
	a = 1;
	b = 2;
	/* 1+(2+(1+(2+...))): twelve operands, 6 ones and 6 twos */
	printf("%d\n", a + (b + (a + (b + (a + (b + (a + (b + (a + (b + (a + b)))))))))));
	/* 10-(1-(10-(1-(10-(1-(10-(1-(10-1)))))))) */
	c = 10;
	printf("%d\n", c - (a - (c - (a - (c - (a - (c - (a - (c - a)))))))));
	/* 1000/(2*(5-(1+(1+(1+(1+(1+(1+(1-6))))))))) = 1000/(2*4) */
	d = 1000;
	printf("%d\n", d / (b * (5 - (a + (a + (a + (a + (a + (a + (a - 6))))))))));
	exit(0);
}
