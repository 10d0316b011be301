/*
 * ASSERTION: a translator is checked where it is declared: a member
 * defined by an expression of an incompatible type is an error even if
 * the translator is never used.
 */
struct in {
	int a;
};

struct out {
	int v;
	string s;
};

translator struct out < struct in *p > {
	v = p->a;
	s = p->a;
};

BEGIN
{
	exit(0);
}
