/*
 * ASSERTION: a char * into scratch and a char [n] member are
 * string-compatible: strlen, substr, strtok, strjoin take them, printf's
 * %s prints the string they point to, and they compare with strings as
 * strings (with each other as pointers); bcopy copies a string constant
 * into scratch; an array decays to a pointer to its first element; a
 * string and a char * are assignable to each other and (string)p reads
 * the string at p; strtok() of a null pointer constant continues the
 * previous string; a string stored through a string * (the Guide's
 * alloca() example) reads back.
 */
#pragma D option quiet

struct buf {
	int	b_len;
	char	b_data[16];
};

char *lit;

BEGIN
{
	b = (struct buf *)alloca(sizeof (struct buf));
	bcopy("alpha,beta", b->b_data, 11);
	p = b->b_data;
	printf("%s|%s|%d|%d\n", p, b->b_data, strlen(p), strlen(b->b_data));
	printf("%s|%s\n", substr(p, 6), strjoin(p, "!"));
	printf("%s|%s\n", strtok(p, ","), strtok(b->b_data, "ph"));
	printf("%s|%s\n", strtok(p, ","), strtok((char *)0, ","));
	printf("%d %d %d\n", p == "alpha,beta", p != "alpha", "alpha" < p);
	printf("%d %d\n", p == &b->b_data[0], (p + 6) == &b->b_data[6]);
	printf("%d %d\n", (uintptr_t)p - (uintptr_t)b, &b->b_data[4] - p);
	printf("%c%c\n", *(p + 1), (b->b_data + 2)[0]);
	str = "x";
	str = p;
	lit = "literal";
	printf("%s|%s|%s|%d\n", str, (string)p, lit, strlen(lit));
	x = (string *)alloca(sizeof (string) + 1);
	*x = "abc";
	printf("%s %d\n", *x, strlen(*x));
	exit(0);
}
