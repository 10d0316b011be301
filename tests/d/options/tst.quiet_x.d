/*
 * ASSERTION: -x quiet is the same as -q: no header, no prefix, no
 * "matched" notice.
 * @@options: -x quiet
 */
BEGIN
{
	printf("quiet\n");
	exit(0);
}
