/*
 * pidloop [N] - a small target for the pid provider (tests/d/pid): main
 * calls outer(i) for i = 1..N (default 3); outer calls inner(i, 10 * i),
 * which returns their sum, and keeps a running total.  Each function has
 * a frame (the build keeps frame pointers), so entry, return and offset
 * probes, ustack() and uregs[] all have known values: inner's arguments
 * are (i, 10 i) and it returns 11 i.  With -f, pidloop forks first and the
 * child runs the same loop (a fork's child must run without the parent's
 * probes).  Prints nothing (so that its output cannot interleave with the
 * tracer's); exits 0 if the total is right (11 n (n + 1) / 2), else 1.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

static volatile long total;

__attribute__((noinline)) long inner(long a, long b)
{
	return a + b;
}

__attribute__((noinline)) long outer(long i)
{
	long r = inner(i, 10 * i);

	total += r;
	return r;
}

int main(int argc, char **argv)
{
	bool fork_first = argc > 1 && strcmp(argv[1], "-f") == 0;
	long n = argc > 1 + fork_first ? atol(argv[1 + fork_first]) : 3;
	int child = fork_first ? fork() : -1;

	for (long i = 1; i <= n; i++)
		outer(i);
	int status = 0;
	if (child > 0)
		waitpid(child, &status, 0);
	return total == 11 * n * (n + 1) / 2 && status == 0 ? 0 : 1;
}
