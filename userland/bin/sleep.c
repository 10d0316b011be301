/* sleep SECONDS - do nothing for that long. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: sleep SECONDS\n");
		return 2;
	}
	return sleep((unsigned)atoi(argv[1])) == 0 ? 0 : 1;
}
