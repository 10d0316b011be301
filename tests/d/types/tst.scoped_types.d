/*
 * ASSERTION: the backquote scoping operator names D's own types: a typedef
 * as D`foo_t, a tag as struct D`foo (the Guide's "struct module`tag") or
 * as D`struct foo, a built-in type as D`uint64_t or D`char; each is the
 * same type as its unscoped name, in declarations, casts, sizeof and
 * offsetof.
 */
/* @@options: -q */

typedef struct foo { int x; long y; } foo_t;
D`foo_t g;
struct D`foo h;
BEGIN
{
	g.x = 1; h.y = 2;
	printf("%d %d %d %d\n", sizeof(D`foo_t), sizeof(struct D`foo), sizeof(D`struct foo), sizeof(D`uint64_t));
	printf("%d %d %d\n", (D`char)257, g.x, h.y);
	printf("%d\n", offsetof(struct D`foo, y));
	exit(0);
}
