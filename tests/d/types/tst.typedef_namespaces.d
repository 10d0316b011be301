/*
 * ASSERTION: typedef names and member names are in name spaces of their
 * own: a member, a thread-local and a clause-local may be named like a
 * typedef, and a struct tag like one too.
 */
/* @@options: -q */

typedef int foo_t;
struct s { foo_t foo_t; int count; };
struct foo_t { long a; int b; };
struct s v;
BEGIN
{
	v.foo_t = 3;
	self->foo_t = 4;
	this->foo_t = 5;
	x[1] = v.foo_t;
	printf("%d %d %d %d\n", v.foo_t, self->foo_t, this->foo_t, sizeof (foo_t));
	printf("%d\n", sizeof (struct foo_t));
	exit(0);
}
