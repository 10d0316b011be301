/*
 * ASSERTION: a clause's actions run in order: speculate() sees the
 * speculation that an assignment earlier in the same clause made (the
 * Dynamic Tracing Guide's specopen.d idiom), for a thread-local, a
 * clause-local and a global, and the records that follow it go to that
 * speculation.
 */
#pragma D option quiet
#pragma D option nspec=3

BEGIN
{
	self->spec = speculation();
	speculate(self->spec);
	printf("self-> speculation %d\n", self->spec);
}

BEGIN
{
	this->spec = speculation();
	speculate(this->spec);
	printf("this-> speculation %d\n", this->spec);
}

BEGIN
{
	g = speculation();
	speculate(g);
	printf("global speculation %d\n", g);
}

BEGIN
{
	printf("before the commits\n");
}

BEGIN
{
	commit(g);
}

BEGIN
{
	commit(self->spec);
}

BEGIN
{
	commit(2);
}

BEGIN
{
	exit(0);
}
