/*
 * ASSERTION: xlate<T>(e) is an expression of its own (the Guide's
 * "Translate Operator"): a translation to a struct may be assigned whole
 * to a global, thread-local, clause-local or associative array element,
 * copying every member the translator defines (members it leaves out read
 * as zero); a translation to a pointer may be dereferenced with * or ->
 * and stored; a translator member may itself be a whole translation.
 */
/* @@options: -q */

struct in { int a; int b; };
struct out { int sum; int diff; string tag; long untouched; };
struct outer { struct out o; int n; };
translator struct out < struct in *p > { sum = p->a + p->b; diff = p->a - p->b; tag = "pair"; };
translator struct outer < struct in *p > { o = xlate<struct out>(p); n = 42; };
struct out o;
struct outer w;
this struct in *ip;
BEGIN
{
	this->ip = (struct in *)alloca(sizeof (struct in));
	this->ip->a = 7;
	this->ip->b = 3;
	o = xlate<struct out>(this->ip);
	printf("%d %d %s %d\n", o.sum, o.diff, o.tag, o.untouched);
	o = *xlate<struct out *>(this->ip);
	printf("%d\n", o.sum);
	w = xlate<struct outer>(this->ip);
	printf("%d %d %s\n", w.o.diff, w.n, w.o.tag);
	self->k = xlate<struct out>(this->ip);
	printf("%d\n", self->k.sum);
	x[1] = xlate<struct out>(this->ip);
	printf("%d\n", x[1].diff);
	printf("%d\n", xlate<struct outer *>(this->ip)->o.sum);
	exit(0);
}
