/*
 * ASSERTION: at a small strsize, thread-local strings fit their entries
 * (three of them used to write past the space and page-fault).  Strings
 * are cut to strsize - 1 characters.
 * @@options: -q -x strsize=8
 */
BEGIN
{
	self->x = "abc";
	self->y = "abc";
	self->z = "abcdefghijklmnop";
	printf("%s %s %s\n", self->x, self->y, self->z);
	exit(0);
}
