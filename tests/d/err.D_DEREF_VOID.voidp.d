/*
 * Asserts D_DEREF_VOID: a void pointer cannot be dereferenced.
 */
void *p;
BEGIN
{
	trace(*p);
}
