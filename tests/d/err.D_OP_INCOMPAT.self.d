/*
 * Asserts D_OP_INCOMPAT: a thread-local keeps its type.
 */
BEGIN
{
	self->x = timestamp;
	self->x = execname;
}
