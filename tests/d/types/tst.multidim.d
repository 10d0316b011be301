/*
 * ASSERTION: multi-dimensional arrays (the Guide's "Multi-Dimensional
 * Arrays"): a global int a[2][3][4], an array of structs, a struct member
 * short cell[3][5]; each is stored row-major, sizeof of every level is its
 * elements' bytes, constant and computed indices reach the same element.
 */
/* @@options: -q */

int a3[2][3][4];
struct pt { int x; int y; };
struct pt grid[2][3];
struct m { short cell[3][5]; char tag; };
struct m mm;
BEGIN
{
	a3[1][2][3] = 9;
	grid[1][2].y = 5;
	mm.cell[2][4] = 7;
	printf("%d %d %d %d\n", sizeof (a3), sizeof (a3[1]), sizeof (a3[1][2]), sizeof (a3[1][2][3]));
	printf("%d %d %d\n", a3[1][2][3], a3[0][0][0], grid[1][2].y);
	printf("%d %d %d %d\n", sizeof (grid), sizeof (grid[0]), sizeof (struct m), offsetof(struct m, tag));
	printf("%d %d\n", mm.cell[2][4], sizeof (mm.cell[1]));
	this->i = 1;
	a3[this->i][this->i + 1][this->i + 2] = 3;
	printf("%d\n", a3[1][2][3]);
	exit(0);
}
