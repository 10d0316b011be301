/*
 * ASSERTION: index() and rindex() find the first and last occurrence
 * of a substring, -1 when absent; index() takes a start position.
 */
#pragma D option quiet

BEGIN
{
	s = "abcabcabc";
	printf("%d %d %d\n", index(s, "bc"), index(s, "c"), index(s, "x"));
	printf("%d %d\n", rindex(s, "bc"), rindex(s, "x"));
	printf("%d %d %d\n", index(s, "bc", 2), index(s, "bc", 5),
	    index(s, "bc", 8));
	printf("%d %d\n", index(s, "abcabcabc"), index("ab", "abc"));
	exit(0);
}
