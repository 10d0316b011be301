/*
 * ASSERTION: an associative array may be declared with a struct key type
 * (int a[struct s, int]); its elements are found by equal struct bytes.
 */
/* @@options: -q */

struct s { int x; long y; };
int a[struct s, int];
struct s v;
BEGIN { v.y = 3; a[v, 1] = 4; printf("%d %d\n", a[v, 1], a[v, 2]); exit(0); }
