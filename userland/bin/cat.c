/* cat [FILE...] - copy each file (the boot archive's, or /dev/...) or, with none, standard input, to standard output. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int copy(int fd)
{
	char buf[1024];
	int n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (write(1, buf, (size_t)n) != n) {
			fprintf(stderr, "cat: write error: %s\n", strerror(errno));   /* ENOSPC in a full /tmp */
			return 1;
		}
	}
	return n < 0;
}

int main(int argc, char **argv)
{
	int status = 0;

	if (argc == 1)
		return copy(0);
	for (int i = 1; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "cat: %s: No such file or directory\n", argv[i]);
			status = 1;
			continue;
		}
		status |= copy(fd);
		close(fd);
	}
	return status;
}
