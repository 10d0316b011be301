/*
 * pingpong [N [-t]] - two processes pass a byte back and forth over two
 * pipes, N times (default 100), then the parent reaps the child and
 * reports; with -t also the nanoseconds per round trip (clock_gettime;
 * under -icount, guest instructions: tools/bench_causal.py).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "userland/libc/sonde.h"

static long long now_ns(void)
{
	struct timespec ts;

	sonde_syscall(SYS_clock_gettime, 1, (long)&ts, 0, 0, 0, 0);     /* CLOCK_MONOTONIC */
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int bounce(int in, int out, long n, int first)
{
	char c = 'x';

	for (long i = 0; i < n; i++) {
		if (!first && read(in, &c, 1) != 1)
			return 1;
		if (write(out, &c, 1) != 1)
			return 1;
		if (first && read(in, &c, 1) != 1)
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100;
	int ping[2], pong[2], status;
	int timed = argc > 2 && strcmp(argv[2], "-t") == 0;
	long long t0 = now_ns();

	if (pipe(ping) < 0 || pipe(pong) < 0) {
		perror("pingpong: pipe");
		return 1;
	}
	pid_t child = fork();
	if (child < 0) {
		perror("pingpong: fork");
		return 1;
	}
	if (child == 0)
		_exit(bounce(ping[0], pong[1], n, 0));
	int bad = bounce(pong[0], ping[1], n, 1);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		bad = 1;
	printf("pingpong: %ld round trips%s\n", n, bad ? ", FAILED" : "");
	if (timed)
		printf("pingpong: %lld ns per round trip\n", n > 0 ? (now_ns() - t0) / n : 0);
	return bad;
}
