/*
 * forkbomb [N] - a bounded fork bomb: N generations (default 4), each
 * process forking two children and waiting for both, so 2^(N+1) - 1
 * processes in all.  Prints the number that ran (each one counts itself
 * and what its children report through their exit statuses).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int generation(int left)
{
	int count = 1;

	if (left == 0)
		return count;
	for (int i = 0; i < 2; i++) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(generation(left - 1));
		if (pid < 0)
			continue;                       /* the table is full: fewer processes */
	}
	for (int status; wait(&status) > 0;)
		if (WIFEXITED(status))
			count += WEXITSTATUS(status);
	return count;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;

	if (n < 0 || n > 6) {
		fprintf(stderr, "forkbomb: N from 0 to 6\n");
		return 2;
	}
	printf("forkbomb: %d processes\n", generation(n));
	return 0;
}
