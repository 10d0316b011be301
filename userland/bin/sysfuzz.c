/*
 * sysfuzz SEED [N [SECONDS]] - N system calls (default 1000) with random
 * numbers and arguments from SEED, to show that no system call with any
 * arguments hurts the kernel.  With SECONDS it stops at whichever comes
 * first, N calls or SECONDS of CLOCK_MONOTONIC (N 0: no limit but time),
 * and says so: "sysfuzz: N calls in S s" (the long campaign runs eight at
 * once for ten minutes, tests/e2e/test_campaign.py); without, it prints
 * "sysfuzz: N calls".
 *
 * Numbers are drawn from 0..599 (the table ends at 511); arguments from a
 * pool of interesting values (zero, small numbers, -1, huge lengths,
 * unmapped, non-canonical and kernel addresses, the last user byte but not
 * the stack's top page, whose frames are the fuzzer's own, and addresses in
 * a scratch buffer of this program).  Calls that would end this process or
 * stop it on purpose are left out, so the run completes: exit, exit_group,
 * kill, execve of a real file cannot happen by chance, reads from the
 * console (fd 0), writes to fds 0-2 (garbage on the console), close or dup2
 * over fds 0-2 or copying them (a copy of the console would do both), brk
 * (newlib's heap), mmap with MAP_FIXED and munmap reaching outside the mmap
 * area (this program's own pages), and nanosleep.  fork's child exits at
 * once and is waited for, so the children never fill the process table.
 *
 * Memory: each process may map 64 MiB (PROC_MEM_PAGES), so eight at once
 * would exhaust a 256 MiB guest (they did: free memory fell to a few
 * hundred KiB and processes died of SIGSEGV on copy-on-write faults with no
 * page to copy to).  Once the fuzzed mmaps have asked for MAP_BUDGET bytes,
 * the fuzzer unmaps its whole mmap area itself.
 *
 * A read or write on a pipe or a device can wait for ever: the fuzzer holds
 * both ends of the pipes it makes (an empty pipe's reader waits for itself,
 * a full pipe's writer too).  Such a call (fstat says the fd is a FIFO or a
 * character device) runs in a child of its own, which is killed if it has
 * not finished in GUARD_MS: the call is still made, and a process killed
 * while it waits in the kernel is part of the test.  The clock is read
 * every 256 calls by calls of its own, outside the fuzzed ones, whose
 * arguments never point at its buffers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "userland/libc/sonde.h"

#define GUARD_MS 20
#define MAP_BUDGET (16L << 20)                 /* bytes mapped before the area is cleared */
#define MMAP_AREA 0x100000000000L              /* mmap's first address (kernel/proc_exec.c) */
#define MODE_TYPE 0170000
#define MODE_FIFO 0010000
#define MODE_CHR  0020000
#define NO_HANG 1                          /* wait4's WNOHANG */
#define FILES_MAX 16                       /* a process's fds */

/* Linux x86-64's struct stat, as the kernel's fstat writes it (144 bytes). */
struct fuzz_stat {
	unsigned long long st_dev, st_ino, st_nlink;
	unsigned int st_mode, st_uid, st_gid, st_pad;
	unsigned long long st_rest[12];
};

static unsigned char scratch[3 * 4096] __attribute__((aligned(4096)));
static unsigned long long rng;
static long mapped, map_lo, map_hi;        /* bytes the fuzzed mmaps asked for since the last clear, where */

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
		0x10000, 0x400000, 0x0000700000000000L, 0x00007fffffffffffL, 0x0000800000000000L,
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
	case SYS_dup2:                        /* no copy of the console, either */
		return (a[0] < 0 || a[0] > 2) && (a[1] < 0 || a[1] > 2);
	case SYS_mmap:
		return (a[3] & 0x10) == 0;
	case SYS_munmap:                      /* the whole range: a long one reaches the stack */
		return a[0] >= MMAP_AREA && a[0] < 2 * MMAP_AREA && a[1] >= 0 && a[1] <= 2 * MMAP_AREA - a[0];
	default:
		return 1;
	}
}

/* ms_now: CLOCK_MONOTONIC in milliseconds. */
static long ms_now(void)
{
	struct timespec ts = { 0 };

	sonde_syscall(SYS_clock_gettime, 1, (long)&ts, 0, 0, 0, 0);     /* CLOCK_MONOTONIC */
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* may_block: is this a read or write on a pipe or a device (which can wait for ever)? */
static int may_block(long nr, const long a[6])
{
	struct fuzz_stat st = { 0 };

	if ((nr != SYS_read && nr != SYS_write) || a[0] < 3 || a[0] >= FILES_MAX)
		return 0;
	if (sonde_syscall(SYS_fstat, a[0], (long)&st, 0, 0, 0, 0) != 0)
		return 0;
	return (st.st_mode & MODE_TYPE) == MODE_FIFO || (st.st_mode & MODE_TYPE) == MODE_CHR;
}

/* call_guarded: the call in a child, killed after GUARD_MS (a full process table: not made). */
static void call_guarded(long nr, const long a[6])
{
	long pid = sonde_syscall(SYS_fork, 0, 0, 0, 0, 0, 0), start = ms_now();

	if (pid == 0) {
		sonde_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
		_exit(0);
	}
	while (pid > 0 && sonde_syscall(SYS_wait4, pid, 0, NO_HANG, 0, 0, 0) == 0) {
		if (ms_now() - start >= GUARD_MS) {
			sonde_syscall(SYS_kill, pid, 9, 0, 0, 0, 0);              /* SIGKILL */
			sonde_syscall(SYS_wait4, pid, 0, 0, 0, 0, 0);
			break;
		}
		sonde_syscall(SYS_sched_yield, 0, 0, 0, 0, 0, 0);
	}
}

/* fuzz_one: one random call, if allowed; 1 when it ran. */
static int fuzz_one(void)
{
	long nr = (long)(next() % 600), a[6];

	for (int i = 0; i < 6; i++)
		a[i] = pick_arg();
	if (!allowed(nr, a))
		return 0;
	if (may_block(nr, a)) {
		call_guarded(nr, a);
		return 1;
	}
	long r = sonde_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (nr == SYS_fork && r == 0)
		_exit(0);
	if (nr == SYS_fork && r > 0)
		sonde_syscall(SYS_wait4, r, 0, 0, 0, 0, 0);
	if (nr == SYS_mmap && r >= MMAP_AREA) {
		map_lo = map_lo != 0 ? map_lo : r;   /* mappings rise: [map_lo, map_hi) holds them */
		map_hi = r + a[1];
		if ((mapped += a[1]) > MAP_BUDGET) {
			sonde_syscall(SYS_munmap, map_lo, map_hi - map_lo, 0, 0, 0, 0);
			mapped = map_lo = 0;
		}
	}
	return 1;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: sysfuzz SEED [N [SECONDS]]\n");
		return 2;
	}
	long n = argc > 2 ? atol(argv[2]) : 1000, done = 0;
	long seconds = argc > 3 ? atol(argv[3]) : -1, start = ms_now();
	rng = (unsigned long long)atol(argv[1]) * 0x9e3779b97f4a7c15ULL + 1;

	while (n == 0 ? seconds >= 0 : done < n) {
		if (!fuzz_one())
			continue;
		if (++done % 256 == 0 && seconds >= 0 && ms_now() - start >= seconds * 1000)
			break;
	}
	while (sonde_syscall(SYS_wait4, -1, 0, 0, 0, 0, 0) > 0)
		;                                /* the children fork made */
	char line[64];                       /* one write: eight at once do not interleave */
	int len = seconds >= 0
		? snprintf(line, sizeof(line), "sysfuzz: %ld calls in %ld s\n", done, (ms_now() - start) / 1000)
		: snprintf(line, sizeof(line), "sysfuzz: %ld calls\n", done);
	write(1, line, (size_t)len);
	return 0;
}
