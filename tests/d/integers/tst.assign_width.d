/*
 * ASSERTION: a variable of a C integer type holds what that C type would
 * hold after every assignment, however the value was computed: plain,
 * compound and ++/-- assignment wrap at the variable's width and keep its
 * signedness, for globals, self->, this-> and associative array values;
 * operators on variables follow C's conversions at run time (unsigned
 * comparison, promotion of char, signed and unsigned division and shift).
 */
#pragma D option quiet

int i;
short s;
char c;
unsigned int u;
uint8_t b;
int a[int];

BEGIN
{
	i = 0x7fffffff; i = i + 1; printf("%d ", i);
	i = 0x7fffffff; i += 1; printf("%d ", i > 0);
	i = 0x7fffffff; i++; printf("%d ", i > 0);
	i = -0x7fffffff - 1; --i; printf("%d\n", i);
	i = 0x100000001; printf("%d ", i);
	s = 70000; printf("%d ", s);
	s = 32767; s++; printf("%d ", s);
	c = 200; printf("%d ", c);
	b = 300; printf("%d ", b);
	b = 255; b += 2; printf("%d\n", b);
	u = -1; printf("%u %d ", u, u > 0);
	u = 0; u--; printf("%d\n", u == 4294967295);
	self->s = (short)1; self->s += 0x12345; printf("%d ", self->s);
	this->c = (char)1; this->c += 255; printf("%d ", this->c);
	a[0] = 0x7fffffff; a[0] += 1; printf("%d ", a[0] < 0);
	a[1] = 0x100000005; printf("%d ", a[1]);
	l = 1; l = 0x100000000; printf("%d ", l);
	printf("%d\n", (i = 0x100000002) == 2);
	u = 1; i = -1; c = -1; b = 255;
	printf("%d %d %d %d ", u > i, i < u, c == 255, b == -1);
	u = 0xffffffff; n = 1;
	printf("%u %u %u ", u / 2, u % 7, u >> n);
	i = -7; c = -128;
	printf("%d %d %d %d %d\n", i >> n, i / 2, i % 3, c >> n, ~b);
	exit(0);
}
