/*
 * ASSERTION: not quiet, printa() with a format prints on the prefix line
 * and a following printf() continues where it left off.
 */
BEGIN
{
	@a["one"] = count();
	printa("%s %@d\n", @a);
	printf("x");
	exit(0);
}
