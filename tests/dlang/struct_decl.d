/* Pins the DIF for: declared struct variables and string compare of members. */
struct rec { int id; char name[16]; };
struct rec *r;
self string who;
BEGIN
{
	self->who = stringof(r->name);
	trace(r->id == 3);
}
