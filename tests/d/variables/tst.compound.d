/*
 * ASSERTION: compound assignment and increment/decrement operators on
 * globals, pre and post forms.
 */
#pragma D option quiet

BEGIN
{
	x = 10;
	x += 5; printf("%d ", x);
	x -= 3; printf("%d ", x);
	x *= 4; printf("%d ", x);
	x /= 6; printf("%d ", x);
	x %= 5; printf("%d ", x);
	x <<= 4; printf("%d ", x);
	x >>= 2; printf("%d ", x);
	x |= 0x100; printf("%d ", x);
	x &= 0xf0f; printf("%d ", x);
	x ^= 0xff; printf("%d\n", x);
	y = x++;
	printf("%d %d\n", y, x);
	y = ++x;
	printf("%d %d\n", y, x);
	y = x--;
	printf("%d %d\n", y, x);
	y = --x;
	printf("%d %d\n", y, x);
	exit(0);
}
