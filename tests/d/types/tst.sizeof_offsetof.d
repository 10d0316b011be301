/*
 * ASSERTION: sizeof and offsetof of everything DTrace allows: variables
 * (with and without parentheses), members, array elements, thread- and
 * clause-locals, strings (a variable is strsize bytes, a string constant
 * its characters and NUL: the Guide's "String Constants"), type names with
 * abstract pointer and array declarators, expressions, built-in
 * variables; offsetof of members of structs and unions, with C's natural
 * alignment.
 */
/* @@options: -q */

struct inner { char c; long l; };
struct s { int a; struct inner in; int arr[5]; char *p; int bf : 3; };
union u { char c; struct inner in; };
struct s sv;
union u uv;
int iv;
string str;
int ia[7];
BEGIN
{
	self->t = 1;
	this->l = (long)2;
	printf("%d %d %d %d\n", sizeof iv, sizeof (iv), sizeof sv, sizeof uv);
	printf("%d %d %d %d\n", sizeof (sv.in), sizeof sv.arr, sizeof (sv.arr[1]), sizeof (sv.p));
	printf("%d %d %d %d\n", sizeof (self->t), sizeof (this->l), sizeof (str), sizeof (ia));
	printf("%d %d %d\n", sizeof (char), sizeof (short), sizeof (long long));
	printf("%d %d %d %d\n", sizeof (void *), sizeof (struct inner *), sizeof (int [3]), sizeof (1 + 1));
	printf("%d %d\n", sizeof (1ULL), sizeof ("abc"));
	printf("%d %d %d %d\n", offsetof(struct s, in), offsetof(struct s, arr), offsetof(struct s, p), offsetof(union u, in));
	printf("%d %d\n", sizeof (struct s), sizeof (*&sv.in));
	printf("%d %d %d\n", sizeof (timestamp), sizeof (execname), sizeof (curthread));
	exit(0);
}
