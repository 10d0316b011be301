/*
 * munmapbench [N] - the cost of munmap of one touched page, with and
 * without a TLB shootdown: N rounds (default 50) of each, timed with
 * clock_gettime; prints the fastest round of each in nanoseconds
 * (instructions under -icount; make bench, docs/processes.md).
 *
 * Without: the process stays on CPU 0, so no other CPU has its tables
 * loaded.  With (2 CPUs or more): before each round it visits CPU 1 and
 * comes back, so CPU 1 keeps its tables loaded (lazy switching) and the
 * munmap cross-calls it.  On one CPU the second figure is not printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "userland/libc/sonde.h"

static long long now_ns(void)
{
	struct timespec ts;

	sonde_syscall(SYS_clock_gettime, 1, (long)&ts, 0, 0, 0, 0);     /* CLOCK_MONOTONIC */
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int bind_to(int cpu)
{
	unsigned long mask = 1UL << cpu;

	return (int)sonde_syscall(SYS_sched_setaffinity, 0, sizeof(mask), (long)&mask, 0, 0, 0);
}

/* one_round: map and touch a page, (visit CPU 1 if hop), time its munmap; -1 on failure. */
static long long one_round(int hop)
{
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	p[0] = 1;
	if (hop && (bind_to(1) != 0 || bind_to(0) != 0))
		return -1;
	long long t0 = now_ns();
	if (munmap(p, 4096) != 0)
		return -1;
	return now_ns() - t0;
}

static long long best_of(long n, int hop)
{
	long long best = -1;

	for (long r = 0; r < n; r++) {
		long long dt = one_round(hop);
		if (dt < 0)
			return -1;
		if (best < 0 || dt < best)
			best = dt;
	}
	return best;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 50;

	if (bind_to(0) != 0 || one_round(0) < 0) {    /* the CPU we started on lets go (one shootdown) */
		printf("munmapbench: cannot start\n");
		return 1;
	}
	printf("munmap: %lld ns without a shootdown\n", best_of(n, 0));
	if (bind_to(1) == 0 && bind_to(0) == 0)
		printf("munmap: %lld ns with a shootdown\n", best_of(n, 1));
	return 0;
}
