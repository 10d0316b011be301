/*
 * ASSERTION: the entry/return idiom (self->t = timestamp at entry,
 * tested and cleared at return) sees every call of a workload whose two
 * threads may run on different CPUs: exact counts, no drops.
 * @@options: -q -c 'pingpong 20000'
 * @@timeout: 90
 */
fbt::pp_send:entry
{
	self->t = timestamp;
}

fbt::pp_send:return
/self->t/
{
	@sends = count();
	self->t = 0;
}

fbt::pp_receive:entry
{
	self->r = timestamp;
}

fbt::pp_receive:return
/self->r != 0 && timestamp >= self->r/
{
	@received = count();
	self->r = 0;
}

END
{
	printa("sends %@d\n", @sends);
	printa("receives %@d\n", @received);
}
