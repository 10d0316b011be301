/*
 * ASSERTION: char constants are ints as in C: a multi-character constant
 * packs its bytes big-end first, escapes (\n \0 \x41 \101 \\) give their
 * byte; / and % truncate toward zero for negative operands, folded or at
 * run time; casts cut and extend at the type's width; a char promotes
 * to int before arithmetic.
 */
#pragma D option quiet
BEGIN
{
	printf("%d %d %d %d %d %d\n", 'ab', '\n', '\0', '\x41', '\101', '\\');
	printf("%d %d %d %d\n", -7 / 2, -7 % 2, 7 / -2, 7 % -2);
	x = -7; y = 2;
	printf("%d %d %d %d\n", x / y, x % y, 7 / (0 - y), 7 % (0 - y));
	printf("%d %d %d\n", (char)300, (unsigned char)-1, (short)70000);
	printf("%d %u %d\n", 'abcd', (unsigned)-1, sizeof ('a'));
	c = (char)-1; u = (unsigned char)c;
	printf("%d %d %d\n", c, u, c + u);
	exit(0);
}
