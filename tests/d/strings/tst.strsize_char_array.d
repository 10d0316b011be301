/*
 * ASSERTION: with strsize=8 a char [n] member is a string of at most 7
 * chars in every subroutine that takes a string (index, rindex, strchr,
 * strrchr, basename, dirname, comparison); a string constant longer than
 * strsize is cut when printed, joined or measured.
 */
#pragma D option strsize=8
#pragma D option quiet
struct buf { char d[16]; };
BEGIN
{
	b = (struct buf *)alloca(sizeof (struct buf));
	bcopy("hello/world", b->d, 12);
	printf("%d %d %s %s %s\n",
	    index(b->d, "o"), rindex(b->d, "o"), strchr(b->d, 'w'),
	    strrchr(b->d, 'l'), strstr(b->d, "lo/"));
	printf("%s %s %d\n", basename(b->d), dirname(b->d), b->d == "hello/world");
	printf("[%s] [%s] %d\n", "abcdefghijklmnop", strjoin("abcdefghij", ""),
	    strlen("abcdefghijklmnop"));
	exit(0);
}
