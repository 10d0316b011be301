/*
 * ASSERTION: a * width or precision takes its value from the argument
 * list; a negative * width means left-justify.
 */
#pragma D option quiet

BEGIN
{
	w = 8;
	printf("[%*d]\n", w, 42);
	printf("[%*d]\n", -w, 42);
	printf("[%-*d]\n", 5, 1);
	printf("[%*s]\n", 6, "ab");
	printf("[%.*s]\n", 3, "abcdef");
	printf("[%*.*s]\n", 7, 2, "abcdef");
	printf("[%0*d]\n", 5, 9);
	exit(0);
}
