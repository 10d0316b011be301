/*
 * Asserts D_DEREF_VOID: p[i] of a void * is *(p + i), a dereference of
 * void.
 */
BEGIN
{
	v = alloca(8);
	v[1] = 0;
}
