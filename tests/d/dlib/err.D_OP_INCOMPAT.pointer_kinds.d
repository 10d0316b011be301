/*
 * ASSERTION: a thread-local created as a pointer keeps that type: it may
 * not take a pointer to another type (a void pointer or 0 it could).
 */
BEGIN
{
	self->p = (int *)0;
	self->p = (void *)0;
	self->p = 0;
}

profile-1
{
	self->p = (char *)0;
}
