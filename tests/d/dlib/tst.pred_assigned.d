/*
 * ASSERTION: a predicate may name variables that its clause's body
 * creates: a global, an associative array element and a thread-local are
 * unset (zero) when the predicate first runs; the variables then have the
 * type their assignments give them (a string here).
 */
#pragma D option quiet

BEGIN
/x == 0 && a["k"] == 0 && self->t == 0/
{
	x = 1;
	a["k"] = 2;
	self->t = 3;
	printf("first %d %d %d\n", x, a["k"], self->t);
}

BEGIN
/x == 1/
{
	printf("second %d\n", x + a["k"] + self->t);
}

BEGIN
/s != "abc"/
{
	s = "abc";
	printf("third %s\n", s);
	exit(0);
}
