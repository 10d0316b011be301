/*
 * ASSERTION: thread-local associative arrays with tuple keys.
 */
#pragma D option quiet

BEGIN
{
	self->m["a", 1] = 11;
	self->m["b", 2] = 22;
	printf("%d %d %d\n", self->m["a", 1], self->m["b", 2], self->m["a", 2]);
	exit(0);
}
