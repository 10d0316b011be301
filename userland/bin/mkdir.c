/* mkdir DIR... - make directories (only /tmp is writable); "mkdir: cannot create directory 'D': <reason>". */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
	int status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: mkdir DIR...\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		if (mkdir(argv[i], 0777) < 0) {
			fprintf(stderr, "mkdir: cannot create directory '%s': %s\n", argv[i], strerror(errno));
			status = 1;
		}
	}
	return status;
}
