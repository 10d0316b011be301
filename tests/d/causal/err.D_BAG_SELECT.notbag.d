/*
 * ASSERTION: first() and last() take one bag-> member.
 */
BEGIN
{
	trace(first(self->x));
}
