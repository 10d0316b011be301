/*
 * ASSERTION: a string variable assigned 0 first is an int; a string
 * assigned later is refused (the first assignment fixes the type).
 */

BEGIN
{
	self->s = 0;
	self->s = "abc";
}
