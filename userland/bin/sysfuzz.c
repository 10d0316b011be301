/*
 * sysfuzz SEED [N] - N system calls (default 1000) with random numbers and
 * arguments from SEED, to show that no system call with any arguments
 * hurts the kernel.  Numbers are drawn from 0..599 (the table ends at
 * 511); arguments from a pool of interesting values (zero, small numbers,
 * -1, huge lengths, unmapped, non-canonical and kernel addresses, and
 * addresses in a scratch buffer of this program).  Calls that would end
 * this process or stop it on purpose are left out, so the run completes:
 * exit, exit_group, kill, execve of a real file cannot happen by chance,
 * reads from the console (fd 0), writes to fds 0-2 (garbage on the
 * console), close or dup2 over fds 0-2, brk (newlib's heap), mmap with
 * MAP_FIXED and munmap outside the mmap area (this program's own pages),
 * and nanosleep.  fork's child exits at once.  Prints "sysfuzz: N calls".
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "userland/libc/sonde.h"

static unsigned char scratch[3 * 4096] __attribute__((aligned(4096)));
static unsigned long long rng;

static unsigned long long next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static long pick_arg(void)
{
	static const long fixed[] = {
		0, 1, 2, 3, 4, 8, 16, 64, 4096, -1, -4096, 0x7fffffff, 0x100000000L,
		0x10000, 0x400000, 0x0000700000000000L, 0x00007ffffffff000L, 0x0000800000000000L,
		(long)0xffff800000000000UL, (long)0xffffffff80000000UL, 0x0000900000000000L,
		0x100000000000L, 0x5401, 0x20 | 0x02,
	};
	unsigned long long r = next();

	if (r % 4 == 0)
		return (long)(scratch + (r >> 8) % sizeof(scratch));
	if (r % 4 == 1)
		return (long)(r >> 3);
	return fixed[(r >> 8) % (sizeof(fixed) / sizeof(fixed[0]))];
}

/* allowed: may this call run here without ending or stopping the fuzzer? */
static int allowed(long nr, const long a[6])
{
	switch (nr) {
	case SYS_exit: case SYS_exit_group: case SYS_kill: case SYS_brk: case SYS_nanosleep:
		return 0;
	case SYS_read:
		return a[0] < 0 || a[0] > 2;          /* 1 and 2 are the console too: it would wait */
	case SYS_write:
		return a[0] < 0 || a[0] > 2;
	case SYS_close:
		return a[0] < 0 || a[0] > 2;
	case SYS_dup2:
		return a[1] < 0 || a[1] > 2;
	case SYS_mmap:
		return (a[3] & 0x10) == 0;
	case SYS_munmap:
		return a[0] >= 0x100000000000L && a[0] < 0x200000000000L;
	default:
		return 1;
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: sysfuzz SEED [N]\n");
		return 2;
	}
	long n = argc > 2 ? atol(argv[2]) : 1000, done = 0;
	rng = (unsigned long long)atol(argv[1]) * 0x9e3779b97f4a7c15ULL + 1;

	while (done < n) {
		long nr = (long)(next() % 600), a[6];
		for (int i = 0; i < 6; i++)
			a[i] = pick_arg();
		if (!allowed(nr, a))
			continue;
		long r = sonde_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
		if (nr == SYS_fork && r == 0)
			_exit(0);
		done++;
	}
	while (sonde_syscall(SYS_wait4, -1, 0, 0, 0, 0, 0) > 0)
		;                                /* the children fork made */
	printf("sysfuzz: %ld calls\n", done);
	return 0;
}
