/*
 * pidloop [-f | -e | -t] [N] - a small target for the pid provider (tests/d/pid):
 * main calls outer(i) for i = 1..N (default 3); outer calls inner(i, 10 i),
 * which returns their sum, and keeps a running total.  outer has a frame
 * (the build keeps frame pointers), inner is a frameless leaf, so entry,
 * return and offset probes, ustack() and uregs[] all have known values:
 * inner's arguments are (i, 10 i) and it returns 11 i.
 *
 * With -f, pidloop first forks a child that runs the same loop (a fork's
 * child must run without the parent's probes); with -e the child execs
 * /bin/pidloop N instead (another process running the same program must
 * be untouched by them).  The parent waits for the child before its own
 * loop, so the child runs while the parent's probes are in place.
 *
 * With -t, pidloop runs its loop and then executes a breakpoint of its own
 * (int3; `ta 1` on sparc64: USDT_BREAKPOINT_INSN): it
 * must die of SIGTRAP whether or not pid probes are enabled.
 *
 * USDT probes (userland/libc/usdt.h): pidloop<PID>:pidloop:outer:step
 * (arg0 = i, arg1 = the running total) with an is-enabled test of it, and
 * pidloop<PID>:pidloop:main:loop-done (arg0 = how often that test said yes).
 *
 * Prints nothing (its output cannot interleave with the tracer's); exits 0
 * if the total is 11 N (N + 1) / 2 and the child exited 0, else 1.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "userland/libc/usdt.h"

static volatile long total;
static long enabled_seen;           /* times the is-enabled test said yes */

__attribute__((noinline)) long inner(long a, long b)
{
	return a + b;
}

__attribute__((noinline)) long outer(long i)
{
	long r = inner(i, 10 * i);

	total += r;
	DTRACE_PROBE2(pidloop, step, i, total);
	if (DTRACE_IS_ENABLED(pidloop, step))
		enabled_seen++;
	return r;
}

static void loop(long n)
{
	for (long i = 1; i <= n; i++)
		outer(i);
}

int main(int argc, char **argv)
{
	bool fork_child = argc > 1 && strcmp(argv[1], "-f") == 0;
	bool exec_child = argc > 1 && strcmp(argv[1], "-e") == 0;
	bool trap = argc > 1 && strcmp(argv[1], "-t") == 0;
	int flag = fork_child || exec_child || trap;
	const char *count = argc > 1 + flag ? argv[1 + flag] : "3";
	long n = atol(count);
	int status = 0;

	if (fork_child || exec_child) {
		int child = fork();
		if (child == 0 && exec_child) {
			char *args[] = { "/bin/pidloop", (char *)count, NULL };
			char *env[] = { NULL };
			execve(args[0], args, env);
			_exit(2);
		}
		if (child == 0) {
			loop(n);
			_exit(total == 11 * n * (n + 1) / 2 ? 0 : 1);
		}
		if (child > 0)
			waitpid(child, &status, 0);
	}
	loop(n);
	DTRACE_PROBE1(pidloop, loop__done, enabled_seen);
	if (trap)
		__asm__ volatile(USDT_BREAKPOINT_INSN);
	return total == 11 * n * (n + 1) / 2 && status == 0 ? 0 : 1;
}
