/*
 * ASSERTION: incomplete and circular member types: a struct may point to
 * itself, two structs to each other, a struct to a union declared (and
 * completed) later; a forward declaration completed later is one type
 * with its typedef; sizeof sees the completed sizes.
 */
/* @@options: -q */

struct list;
typedef struct list list_t;

struct list {
	list_t *next;
	struct list *prev;
	int v;
};

struct a {
	struct b *bp;
	int x;
};

struct b {
	struct a *ap;
	int y;
};

union later;

struct holder {
	union later *up;
	char c;
};

union later {
	int i;
	long l;
};

list_t head;
struct a *pa;

BEGIN
{
	head.v = 3;
	printf("%d %d %d\n", sizeof (list_t), sizeof (struct list), head.v);
	printf("%d %d %d\n", sizeof (struct a), sizeof (*pa->bp), sizeof (*pa->bp->ap));
	printf("%d %d\n", sizeof (struct holder), sizeof (union later));
	exit(0);
}
