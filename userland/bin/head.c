/*
 * head [-n N] [FILE...] - the first N lines (10 by default) of each file or of standard input.
 *
 * It reads no more than it needs and exits, so a writer before it in a
 * pipeline gets EPIPE (and dies of SIGPIPE) on its next write, as on Unix.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int head(int fd, long lines)
{
	char buf[512];
	int n;

	while (lines > 0 && (n = read(fd, buf, sizeof(buf))) > 0) {
		int k = 0;
		while (k < n && lines > 0)
			if (buf[k++] == '\n')
				lines--;
		if (write(1, buf, (size_t)k) != k)
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long lines = 10;
	int i = 1, status = 0;

	if (i + 1 < argc && strcmp(argv[i], "-n") == 0) {
		char *end;
		lines = strtol(argv[i + 1], &end, 10);
		if (*end != '\0' || lines < 0) {
			fprintf(stderr, "head: invalid number of lines: '%s'\n", argv[i + 1]);
			return 1;
		}
		i += 2;
	} else if (i < argc && argv[i][0] == '-' && argv[i][1] >= '0' && argv[i][1] <= '9') {
		lines = strtol(argv[i] + 1, NULL, 10);
		i++;
	}
	if (i == argc)
		return head(0, lines);
	for (; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "head: cannot open '%s' for reading: No such file or directory\n", argv[i]);
			status = 1;
			continue;
		}
		status |= head(fd, lines);
		close(fd);
	}
	return status;
}
