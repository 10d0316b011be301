/*
 * ASSERTION: a store past the end of an alloca()'d buffer in BEGIN faults
 * (bcopy() into scratch the clause does not own) and, with no exit() to
 * answer it, ends dtrace with status 1 instead of leaving it tracing.
 */
/* @@exit: 1 */
#pragma D option quiet

BEGIN
{
	p = (char *)alloca(10);
	bcopy(`kmain, p, 4096 * 1024);
	printf("not reached\n");
}
