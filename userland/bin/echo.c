/* echo - print the arguments, separated by spaces, and a newline. */
#include <stdio.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		printf("%s%s", argv[i], i + 1 < argc ? " " : "");
	printf("\n");
	return 0;
}
