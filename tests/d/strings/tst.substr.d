/*
 * ASSERTION: substr(s, index) and substr(s, index, length), with
 * negative indexes counting from the end, lengths past the end
 * clipped, and an index past the end giving "".
 */
#pragma D option quiet

BEGIN
{
	s = "hello world";
	printf("[%s]\n", substr(s, 6));
	printf("[%s]\n", substr(s, 0, 5));
	printf("[%s]\n", substr(s, 1, 3));
	printf("[%s]\n", substr(s, -5));
	printf("[%s]\n", substr(s, -5, 3));
	printf("[%s]\n", substr(s, 4, 100));
	printf("[%s]\n", substr(s, 11));
	printf("[%s]\n", substr(s, 50, 2));
	printf("[%s]\n", substr(s, 3, 0));
	exit(0);
}
