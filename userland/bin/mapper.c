/*
 * mapper [ROUNDS [PAGES [fork]]] - map, touch and unmap memory while moving
 * from CPU to CPU, so that each munmap must shoot down TLB entries on the
 * CPU it just left (docs/processes.md).  Each round (default 100 rounds of
 * 16 pages): bind to the next CPU (sched_setaffinity, wrapping to CPU 0
 * past the last), mmap PAGES pages of /dev/zero, check they read zero,
 * write them, munmap; the same for anonymous memory.  With "fork", a child
 * forked each round writes the parent's (copy-on-write) pages, the first
 * through read(2) from /dev/zero (so the kernel's copy faults), and exits
 * while the parent checks its own copy and unmaps it.  Prints "mapper: N
 * rounds"; exits 1 if memory ever reads wrong.
 *
 *   dtrace -n 'sysinfo:::xcalls { @[execname] = count(); }' -c /bin/mapper
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "userland/libc/sonde.h"

#define PAGE 4096

static int next_cpu;
static int zero_fd;                 /* /dev/zero */

/* hop: run on the next CPU from here on. */
static void hop(void)
{
	unsigned long mask = 1UL << next_cpu;

	if (sonde_syscall(SYS_sched_setaffinity, 0, sizeof(mask), (long)&mask, 0, 0, 0) != 0) {
		next_cpu = 0;                    /* past the last CPU */
		mask = 1;
		sonde_syscall(SYS_sched_setaffinity, 0, sizeof(mask), (long)&mask, 0, 0, 0);
	}
	next_cpu = (next_cpu + 1) % 64;
}

/* touch: check n pages at p read zero, fill each with its tag; 0 or -1. */
static int touch(unsigned char *p, long n, int tag)
{
	for (long i = 0; i < n * PAGE; i++)
		if (p[i] != 0)
			return -1;
	for (long i = 0; i < n; i++)
		memset(p + i * PAGE, tag + (int)i, PAGE);
	return 0;
}

static int check(const unsigned char *p, long n, int tag)
{
	for (long i = 0; i < n; i++)
		for (long k = 0; k < PAGE; k++)
			if (p[i * PAGE + k] != (unsigned char)(tag + i))
				return -1;
	return 0;
}

/* one_map: map n pages (of fd, or anonymous if fd < 0), use them, unmap; 0 or -1. */
static int one_map(int fd, long n, int tag, int forking)
{
	int flags = MAP_PRIVATE | (fd < 0 ? MAP_ANONYMOUS : 0);
	unsigned char *p = mmap(NULL, (size_t)(n * PAGE), PROT_READ | PROT_WRITE, flags, fd, 0);
	pid_t child = -1;

	if (p == MAP_FAILED || touch(p, n, tag) < 0)
		return -1;
	if (forking && (child = fork()) == 0) {
		/* Its own copies, not the parent's: the first page written by the kernel (read). */
		if (read(zero_fd, p, PAGE) <= 0)          /* may be short: /dev/zero gives 512 at a time */
			_exit(1);
		memset(p + PAGE, 0x5a, (size_t)((n - 1) * PAGE));
		_exit(0);
	}
	hop();
	int r = check(p, n, tag);
	if (munmap(p, (size_t)(n * PAGE)) != 0)
		r = -1;
	int status;
	if (child > 0 && (waitpid(child, &status, 0) != child || status != 0))
		r = -1;
	return r;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 100, pages = argc > 2 ? atol(argv[2]) : 16;
	int forking = argc > 3 && strcmp(argv[3], "fork") == 0;
	int zero = zero_fd = open("/dev/zero", O_RDONLY);

	if (zero < 0 || pages < 1 || pages > 1024) {
		printf("mapper: cannot start\n");
		return 1;
	}
	for (long r = 0; r < rounds; r++) {
		hop();
		if (one_map(zero, pages, (int)r, forking) < 0 || one_map(-1, pages, (int)r + 7, forking) < 0) {
			printf("mapper: round %ld: memory read wrong\n", r);
			return 1;
		}
	}
	printf("mapper: %ld rounds\n", rounds);
	return 0;
}
