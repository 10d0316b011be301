/*
 * ASSERTION: a predicate may read a thread-local variable that only its
 * clause's body assigns (DTrace cooks the body first), while a read before
 * any assignment elsewhere is D_VAR_UNDEF (err.D_VAR_UNDEF.self.d).
 */
#pragma D option quiet

BEGIN
/self->n == 0/
{
	self->n = 1;
	printf("n %d\n", self->n);
	exit(0);
}
