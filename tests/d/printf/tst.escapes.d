/*
 * ASSERTION: escapes in the format and in string arguments: \t, \\,
 * \", \', octal \101 and \0 ending a string early.
 */
#pragma D option quiet

BEGIN
{
	printf("a\tb\n");
	printf("back\\slash \"quoted\" \'single\'\n");
	printf("\101\102\103\n");
	printf("%s|\n", "tab\there");
	printf("%s|\n", "cut\0hidden");
	printf("%c%c\n", '\\', '\'');
	exit(0);
}
