/*
 * ASSERTION: circular translator declarations (struct a from struct b *,
 * struct b from struct a *) compose: a translation to a pointer is the
 * input of the next, chains of four build each struct in turn, and a
 * translated pointer may be cast to another struct pointer.
 */
/* @@options: -q */

struct a { int x; };
struct b { int y; };
translator struct a < struct b *p > { x = p->y + 1; };
translator struct b < struct a *p > { y = p->x * 10; };
translator struct b < int v > { y = v; };
struct a av;
BEGIN
{
	printf("%d\n", xlate<struct a *>(xlate<struct b *>(4))->x);
	printf("%d\n", xlate<struct b>(xlate<struct a *>(xlate<struct b *>(4))).y);
	av = *xlate<struct a *>(xlate<struct b *>(xlate<struct a *>(xlate<struct b *>(2))));
	printf("%d\n", av.x);
	printf("%d\n", ((struct b *)xlate<struct a *>(xlate<struct b *>(7)))->y);
	exit(0);
}
