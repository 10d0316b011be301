/*
 * ASSERTION: a struct or union may be an associative array key (D's keys
 * are of any type a scalar variable may have), alone or in a tuple with
 * other keys, global or thread-local: equal bytes are the same element,
 * a changed member names another, and storing zero deletes the element
 * (it reads as zero again).
 */
/* @@options: -q */

struct k { int a; long b; };
union u { int i; char c; };
struct k key;
union u uk;
BEGIN
{
	key.a = 1; key.b = 2;
	x[key] = 5;
	key.b = 3;
	x[key] = 6;
	y[key, "s"] = 7;
	uk.i = 9;
	z[uk] = 8;
	self->t[key] = 11;
	printf("%d %d %d %d %d\n", x[key], y[key, "s"], z[uk], self->t[key], x[key] + 0);
	key.b = 2;
	printf("%d\n", x[key]);
	x[key] = 0;
	printf("%d\n", x[key]);
	key.b = 4;
	printf("%d\n", x[key]);
	exit(0);
}
