/*
 * ASSERTION: an associative array (global or thread-local) may hold a
 * struct or union value: its members read back through the element
 * (x[k].m), and an element never assigned reads as zero-filled.
 */
/* @@options: -q */

struct s {
	int a;
	long b;
};

union u {
	int i;
	char c;
};

struct s v;
union u w;

BEGIN
{
	v.a = 1;
	v.b = 2;
	x[1] = v;
	v.a = 10;
	x[2] = v;
	w.i = 0x42424242;	/* every byte "B": the same on either byte order */
	y["k"] = w;
	self->t = v;
	printf("%d %d %d %d\n", x[1].a, x[1].b, x[2].a, x[3].b);
	printf("%c %d\n", y["k"].c, self->t.a);
	exit(0);
}
