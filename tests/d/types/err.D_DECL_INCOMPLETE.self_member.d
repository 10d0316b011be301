/*
 * ASSERTION: a struct may not contain itself (its type is incomplete
 * until its closing brace), only a pointer to itself.
 */
struct s {
	int a;
	struct s m;
};

BEGIN
{
	exit(0);
}
