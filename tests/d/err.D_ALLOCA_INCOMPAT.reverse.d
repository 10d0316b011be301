/*
 * Asserts D_ALLOCA_INCOMPAT: a variable that held another pointer may not
 * take an alloca()'d one afterwards (NULL in between changes nothing).
 */
BEGIN
{
	self->p = (int *)curthread;
	self->p = 0;
	self->p = (int *)alloca(4);
}
