/*
 * ASSERTION: s[i] and *s read a string's characters (DTrace's string is
 * a char array) for every kind of string variable; a char * into scratch
 * indexes, dereferences, moves by pointer arithmetic, and is taken as a
 * string by printf %s, strlen, strjoin, substr, index and strtok.
 */
#pragma D option quiet
BEGIN
{
	s = "abc";
	self->t = "xyz";
	this->u = strjoin("hel", "lo");
	a[1] = "arr";
	printf("%c %c %c %c %c %d\n", *s, s[1], self->t[2], this->u[4], a[1][0], s[3]);
	i = 2;
	printf("%c %d\n", s[i], *s == 'a');
	p = (char *)alloca(4);
	p[0] = 0x41;
	p[1] = 0x42;
	p[2] = 0;
	printf("%s %d %c %c %s %s\n", stringof(p), strlen(p),
	    *(p + 1), p[0], strjoin(p, s), substr(p, 1));
	printf("%d %d\n", index(p, "B"), strtok(p, "B") == NULL);
	exit(0);
}
