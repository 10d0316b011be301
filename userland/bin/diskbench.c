/*
 * diskbench [FILE] - what a 4 KiB read costs, from the disk and from the
 * buffer cache (default FILE /disk/data/lines.txt, 300 KB on the ext2 disk).
 *
 * The first pass reads FILE once, 4 KiB at a time: none of its blocks is
 * in the buffer cache yet (nothing else reads the file after boot), so
 * each read goes to the disk (io:::start per block).  Then ROUNDS passes
 * read it again from the cache, and the fastest is kept.  It prints
 *
 *   diskbench: disk read 4KiB: 912345 ns
 *   diskbench: cached read 4KiB: 23456 ns
 *
 * each the pass's time over its reads, timed with clock_gettime; under
 * QEMU's -icount one nanosecond is one guest instruction, so these are
 * instructions per read (make bench: tools/bench_disk.py).  The disk
 * figure includes the device's time as QEMU's -icount counts it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <time.h>
#include "userland/libc/sonde.h"

#define ROUNDS 5
#define PIECE  4096

static char buf[PIECE];

static long long now_ns(void)
{
	struct timespec ts;

	sonde_syscall(SYS_clock_gettime, 1, (long)&ts, 0, 0, 0, 0);     /* CLOCK_MONOTONIC */
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* one_pass: read path whole in PIECE reads; the ns per read, or -1 (reason printed). */
static long long one_pass(const char *path)
{
	int fd = open(path, O_RDONLY);
	long reads = 0;
	int r;

	if (fd < 0) {
		printf("diskbench: cannot open %s\n", path);
		return -1;
	}
	long long t0 = now_ns();
	while ((r = read(fd, buf, PIECE)) > 0)
		reads++;
	long long dt = now_ns() - t0;
	close(fd);
	if (r < 0 || reads == 0) {
		printf("diskbench: cannot read %s\n", path);
		return -1;
	}
	return dt / reads;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/disk/data/lines.txt";
	long long disk = one_pass(path), best = -1;

	if (disk < 0)
		return 1;
	for (int i = 0; i < ROUNDS; i++) {
		long long c = one_pass(path);
		if (c < 0)
			return 1;
		if (best < 0 || c < best)
			best = c;
	}
	printf("diskbench: disk read 4KiB: %lld ns\n", disk);
	printf("diskbench: cached read 4KiB: %lld ns\n", best);
	return 0;
}
