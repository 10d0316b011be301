/*
 * ASSERTION: string relational operators compare bytewise by content.
 */
#pragma D option quiet

BEGIN
{
	a = "apple";
	b = "apples";
	c = strjoin("app", "le");
	printf("%d %d %d\n", a == c, a != c, a == b);
	printf("%d %d %d %d\n", a < b, b < a, a <= c, a >= c);
	printf("%d %d\n", "Z" < "a", "" < "a");
	printf("%s\n", a == c ? "equal" : "different");
	exit(0);
}
