/*
 * ASSERTION: a struct variable bigger than strsize (here 304 bytes, and a
 * struct holding a string member) keeps all its bytes as a global, a
 * thread-local, an associative array element and a clause-local: a
 * member past strsize reads back as stored.
 */
/* @@options: -q */

struct withstr {
	int a;
	string s;
	int past;
};

struct big {
	char pad[300];
	int n;
};

struct withstr ws;
struct big w;

BEGIN
{
	ws.past = 7;
	ws.s = "str";
	self->ws = ws;
	printf("%d %s\n", self->ws.past, self->ws.s);
	w.n = 42;
	self->b = w;
	x["a"] = w;
	this->l = w;
	printf("%d %d %d %d\n", w.n, self->b.n, x["a"].n, this->l.n);
	exit(0);
}
