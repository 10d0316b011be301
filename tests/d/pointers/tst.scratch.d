/*
 * ASSERTION: alloca()'d scratch is written through pointers: *p = v,
 * p[i] = v, p->m = v, compound assignment and ++ through a pointer; p[i]
 * of a pointer variable (global, self->, this->) is a load from memory,
 * not an associative array; stores and loads have the width and sign of
 * the pointee; arrays of structs in scratch are reached with r[i].m,
 * (*r).m, (r + i)->m, and pointer ++ and += step by the pointee's size
 * (*w++ = c stores and steps); a struct is copied whole through
 * pointers (*b = *a) and between scratch and a struct variable.
 */
#pragma D option quiet

struct pair {
	int	p_a;
	short	p_b;
};

struct pair g;

struct rec {
	int	r_int;
	char	r_name[8];
	short	r_short;
	long	r_long;
};

BEGIN
{
	p = (char *)alloca(8);
	*p = 'd';
	p[1] = 't';
	*(p + 2) = 0;
	printf("%s %c %c %d\n", stringof(p), *p, p[1], p[2]);

	this->q = (int *)alloca(4 * sizeof (int));
	this->q[0] = 10;
	this->q[3] = -3;
	this->q[1] = this->q[0] * 2;
	this->q[2] += 7;
	this->q[0]++;
	++this->q[3];
	printf("%d %d %d %d\n", this->q[0], this->q[1], this->q[2],
	    this->q[3]);

	self->r = (struct rec *)alloca(sizeof (struct rec));
	self->r->r_int = 0x7fffffff;
	self->r->r_int += 1;
	self->r->r_short = 70000;
	self->r->r_long = -1;
	self->r->r_name[0] = 'o';
	self->r->r_name[1] = 'k';
	printf("%d %d %d %s\n", self->r->r_int, self->r->r_short,
	    self->r->r_long, self->r->r_name);

	u = (unsigned char *)alloca(2);
	u[0] = 255;
	u[0]++;
	u[1] = 200;
	printf("%d %d %d\n", u[0], u[1], *(char *)&u[1]);

	r = (struct pair *)alloca(sizeof (struct pair) * 3);
	r[1].p_a = 5;
	(*r).p_b = 3;
	(r + 2)->p_a = 7;
	pp = r;
	pp++;
	pp->p_b = pp->p_a + 1;
	pp += 1;
	printf("%d %d %d %d %d %d %d\n", r[1].p_a, r->p_b, r[2].p_a,
	    r[1].p_b, pp->p_a, pp - r, sizeof (r[0]));

	w0 = (char *)alloca(4);
	w = w0;
	*w++ = 'h';
	*w++ = 'i';
	*w = 0;
	printf("%s %d\n", stringof(w0), w - w0);

	pa = (struct pair *)alloca(sizeof (struct pair));
	pb = (struct pair *)alloca(sizeof (struct pair));
	pa->p_a = 1;
	pa->p_b = 2;
	*pb = *pa;
	g.p_a = 5;
	g.p_b = 6;
	*pa = g;
	printf("%d %d %d %d ", pb->p_a, pb->p_b, pa->p_a, pa->p_b);
	g = *pb;
	printf("%d %d\n", g.p_a, g.p_b);
	exit(0);
}
