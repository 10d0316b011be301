/*
 * ASSERTION: bit-fields in D-declared structs and unions read, write, size
 * and lay out as DTrace's D-declared (CTF) types do: each bit-field takes an
 * integer of the smallest power-of-two bytes that hold it, aligned to that
 * size, at the next byte after the previous member (so 3 and 5 bits take a
 * byte each, 12 bits two, 40 bits eight); a stored value keeps its low bits;
 * a signed bit-field reads sign-extended, an unsigned one zero-extended;
 * compound assignment and union overlays see the same bits.
 */
/* @@options: -q */

struct bf {
	int a : 3;
	unsigned int b : 5;
	int : 4;
	unsigned short c : 12;
	char d;
	long e : 40;
};

union ubf {
	int x : 7;
	unsigned char y;
};

struct bf s;
union ubf u;

BEGIN
{
	printf("sizeof %d %d\n", sizeof (struct bf), sizeof (union ubf));
	printf("offsetof d %d\n", offsetof(struct bf, d));
	s.a = 5;
	s.b = 33;
	s.c = 0xfff;
	s.d = 'x';
	s.e = -3;
	printf("a %d b %d c %d d %c e %d\n", s.a, s.b, s.c, s.d, s.e);
	s.a += 2;
	s.b += 31;
	printf("a %d b %d\n", s.a, s.b);
	s.e = 0x8000000000;	/* bit 39: the sign bit of 40 */
	printf("e %d\n", s.e);
	u.x = 63;
	printf("x %d y %d\n", u.x, u.y);
	u.x = 64;
	printf("x %d y %d\n", u.x, u.y);
	u.y = 0xff;
	printf("x %d y %d\n", u.x, u.y);
	exit(0);
}
