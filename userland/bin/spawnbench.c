/*
 * spawnbench [N] - the cost of a process's life: N rounds (default 20) of
 * fork, execve of /bin/true, exit and wait, timed with clock_gettime;
 * prints the fastest round in nanoseconds (instructions under -icount;
 * make bench, docs/processes.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "userland/libc/sonde.h"

static long long now_ns(void)
{
	struct timespec ts;

	sonde_syscall(SYS_clock_gettime, 1, (long)&ts, 0, 0, 0, 0);     /* CLOCK_MONOTONIC */
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20;
	long long best = -1;
	char *targv[] = { "/bin/true", NULL };

	for (long r = 0; r < n; r++) {
		int status;
		long long t0 = now_ns();
		pid_t pid = fork();
		if (pid == 0) {
			execve("/bin/true", targv, NULL);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0) {
			printf("spawnbench: round %ld failed\n", r);
			return 1;
		}
		long long dt = now_ns() - t0;
		if (best < 0 || dt < best)
			best = dt;
	}
	printf("fork+exec+exit+wait: %lld ns\n", best);
	return 0;
}
