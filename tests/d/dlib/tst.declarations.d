/*
 * ASSERTION: declarations DTrace accepts: a storage class without a type
 * (self x; this y; are ints), function prototypes (static too, taken as
 * extern), D`type and kernel`type scoping in declarations, casts and
 * sizeof, struct forward declarations, multi-dimensional arrays as
 * globals, struct members and clause-locals (C's layout, row by row), and
 * the same declaration twice.
 */
#pragma D option quiet

self x;
this y;
int f(void);
int g(int, char *, ...);
string h(int a, int b[4]);
static int sf(int);
extern int ef(int, ...);
D`int di;
kernel`uint64_t ku;
struct fwd;
int a[2][3];
struct s {
	int m[2][3];
	char c;
} v;
this int la[2][2];
int twice;
int twice;
self string st[int];
self string st[int];

BEGIN
{
	self->x = 7;
	this->y = 8;
	di = 9;
	ku = 10;
	printf("untyped %d %d %d %d\n", self->x, this->y, sizeof (self->x),
	    sizeof (this->y));
	printf("scoped %d %d %d %d\n", di + ku, sizeof (D`int),
	    sizeof (kernel`uint64_t), (D`char)257);

	a[1][2] = 3;
	a[0][1] = 5;
	a[0][1] += 2;
	printf("array %d %d %d %d %d\n", a[1][2], a[0][1], a[1][0],
	    sizeof (a), sizeof (a[1]));

	v.m[1][2] = 4;
	v.m[0][0] = 1;
	v.c = 'z';
	printf("member %d %d %d %c %d\n", v.m[1][2], v.m[0][0], v.m[1][1],
	    v.c, sizeof (v));

	this->la[1][0] = 6;
	this->la[0][1] = 2;
	printf("local %d %d %d\n", this->la[1][0], this->la[0][1],
	    this->la[0][0]);
	twice = 2;
	self->st[1] = "two";
	printf("twice %d %s\n", twice, self->st[1]);
	exit(0);
}
