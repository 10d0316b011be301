/* Pins the DIF for: struct members through pointers, arrays in structs, addresses of members, pointer indexing, chained assignment, compound array updates. */
struct rec { int id; char name[16]; struct rec *next; };
BEGIN
{
	s = pid > 1 ? execname : "none";
	this->s = strjoin(s, "!");
	r = (struct rec *)arg0;
	trace(r->next->id);
	trace(r->name[3]);
	trace(stringof(r->name));
	x = y = 3;
	trace(x = 4);
	a[1] = 1;
	a[1] += 2;
	self->b[1, "z"]++;
	trace(sizeof (x));
	trace(args[pid]);
	trace(*&r->id);
	@a[1, 2] = count();
	printa("%d %d %@d\n", @a);
	trace((r + 1)->id);
	trace(r[2].id);
	p = &r->name[2];
	trace(*p);
	trace(-1 < 0u);
	trace(timestamp - 1 > 0);
}
