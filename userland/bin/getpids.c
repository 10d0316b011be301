/*
 * getpids [N] - the cost of a system call round trip: ROUNDS rounds of N
 * getpid calls (default 1000), timed with clock_gettime; prints the
 * fastest round's nanoseconds per call.  Under QEMU's -icount one
 * nanosecond is one guest instruction, so this is instructions per call
 * (make bench, docs/processes.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "userland/libc/sonde.h"

#define ROUNDS 50

static long long now_ns(void)
{
	struct timespec ts;

	sonde_syscall(SYS_clock_gettime, 1, (long)&ts, 0, 0, 0, 0);     /* CLOCK_MONOTONIC */
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	long long best = -1;

	for (int r = 0; r < ROUNDS && n > 0; r++) {
		long long t0 = now_ns();
		for (long i = 0; i < n; i++)
			sonde_syscall(SYS_getpid, 0, 0, 0, 0, 0, 0);
		long long dt = now_ns() - t0;
		if (best < 0 || dt < best)
			best = dt;
	}
	printf("getpid: %lld ns per call\n", n > 0 ? best / n : 0);
	return 0;
}
