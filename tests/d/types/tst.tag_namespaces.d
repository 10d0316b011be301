/*
 * ASSERTION: struct, union and enum tags each have a name space of their
 * own, as DTrace's (CTF's) do: a struct, a union and an enum may share one
 * tag, and a typedef and a variable of that name are distinct again.
 * "struct foo" and "union foo" are two types of their own sizes.
 */
/* @@options: -q */

struct foo {
	int a;
	long b;
};

union foo {
	char c;
	int d;
};

enum foo {
	FOO_A = 3,
	FOO_B
};

typedef union foo foo;

struct foo s;
union foo u;
foo t;

BEGIN
{
	s.a = 1;
	s.b = 2;
	u.d = 0x41414141;	/* every byte "A": the same on either byte order */
	t.c = 'z';
	printf("struct %d union %d enum %d typedef %d\n", sizeof (struct foo),
	    sizeof (union foo), sizeof (enum foo), sizeof (foo));
	printf("%d %d %c %c %d\n", s.a, s.b, u.c, t.c, FOO_B);
	exit(0);
}
