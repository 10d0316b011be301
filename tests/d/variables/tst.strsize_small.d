/*
 * ASSERTION: at a small strsize, thread-local strings and string-keyed
 * array elements fit their entries: strings are cut to strsize - 1
 * characters, never written past an entry (this used to page-fault).
 * @@options: -q -x strsize=8
 */
BEGIN
{
	self->x = "abc";
	self->y = "abc";
	self->z = "abcdefghijklmnop";
	a["k1", 1] = "value one";
	a["k2", 2] = "v2";
	n[self->x] = 3;
	printf("%s %s %s\n", self->x, self->y, self->z);
	printf("%s %s %d\n", a["k1", 1], a["k2", 2], n["abc"]);
	exit(0);
}
