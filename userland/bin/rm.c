/* rm FILE... - remove files (unlink(2)); "rm: cannot remove 'F': <reason>" and status 1 on failure. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: rm FILE...\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		if (unlink(argv[i]) < 0) {
			fprintf(stderr, "rm: cannot remove '%s': %s\n", argv[i], strerror(errno));
			status = 1;
		}
	}
	return status;
}
