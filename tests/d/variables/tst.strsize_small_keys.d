/*
 * ASSERTION: at a small strsize, string-keyed array elements and string
 * values fit their entries; keys and values are cut to strsize - 1
 * characters.
 * @@options: -q -x strsize=8
 */
BEGIN
{
	a["k1", 1] = "value one";
	a["k2", 2] = "v2";
	n["abc"] = 3;
	self->s = "thread";
	printf("%s %s %d %s\n", a["k1", 1], a["k2", 2], n["abc"], self->s);
	exit(0);
}
