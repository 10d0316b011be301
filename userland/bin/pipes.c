/*
 * pipes [N [SIZE]] - N writes of SIZE bytes (default 10 and 100) down a
 * pipe to a child that reads until end of file; the parent prints
 * (from the child) "pipes: N writes of SIZE bytes, the reader got TOTAL";
 * the status is 0 when the reader got every byte.  The workload of
 * docs/labs/03-sdt.md: the student's probes in kernel/pipe.c must see
 * exactly N writes by this process and N x SIZE bytes, and, with SIZE
 * above the pipe's 4 KiB, writers that find the pipe full.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* reader: the bytes read until end of file. */
static long reader(int fd)
{
	static char buf[1024];
	long total = 0, n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	return total;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10, size = argc > 2 ? atol(argv[2]) : 100;
	int fds[2], status;
	char *msg = malloc(size > 0 ? size : 1);

	if (n < 0 || size <= 0 || msg == NULL || pipe(fds) != 0) {
		fprintf(stderr, "usage: pipes [N [SIZE]]\n");
		return 2;
	}
	memset(msg, 'x', size);
	pid_t child = fork();
	if (child == 0) {
		close(fds[1]);
		long got = reader(fds[0]);
		printf("pipes: %ld writes of %ld bytes, the reader got %ld\n", n, size, got);
		_exit(got == n * size ? 0 : 1);
	}
	close(fds[0]);
	for (long i = 0; i < n; i++)
		if (write(fds[1], msg, size) != size)
			return 1;
	close(fds[1]);
	if (waitpid(child, &status, 0) != child)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
