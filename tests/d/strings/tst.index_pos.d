/*
 * ASSERTION: index() and rindex() position arguments follow Perl: a
 * negative start for index() is 0, a start past the end for rindex() is
 * the length; with an empty substring index() past the end gives the
 * length and rindex() before the start gives 0.
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", index("abc", "b", -5), rindex("abcabc", "bc", 3),
	    rindex("abcabc", "bc", 100));
	printf("%d %d %d\n", rindex("abc", "b", -1), index("abc", "c", 3),
	    index("", ""));
	printf("%d %d %d %d\n", index("abc", ""), rindex("abc", ""),
	    index("abc", "", 10), rindex("abc", "", -1));
	exit(0);
}
