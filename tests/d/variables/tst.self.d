/*
 * ASSERTION: thread-local self-> variables persist across probes of one
 * thread and read 0 when unset (declared, not yet assigned); assigning 0
 * frees them.
 */
#pragma D option quiet

/* declared: DTrace rejects reading a variable nothing assigned before */
self int a;

BEGIN
{
	printf("unset %d\n", self->a);
	self->a = 7;
	self->name = "begin";
}

BEGIN
{
	printf("set %d %s\n", self->a, self->name);
	self->a = 0;
	printf("freed %d\n", self->a);
	exit(0);
}
