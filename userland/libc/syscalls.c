/*
 * syscalls.c - the system calls under newlib, for Sonde user programs.
 *
 * newlib (configured with --disable-newlib-supplied-syscalls) leaves the
 * operating system's part of the C library to us: the process entry after
 * crt0.S, and one small function for each call newlib makes (read, write,
 * sbrk, ...).  Each is the machine's system call instruction (sys6.h: on
 * x86_64 SYSCALL with Linux x86-64's convention, number in rax, arguments
 * in rdi, rsi, rdx, r10, r8, r9, result in rax; on sparc64 `ta 0x6d`, number
 * in %g1, arguments in %o0..%o5, result in %o0), -errno on failure, and the
 * numbers come from kernel/syscalls.def, the
 * table the kernel's dispatcher is generated from, so the two cannot
 * disagree.  What the kernel returns in Linux's layout (struct stat) is
 * translated into newlib's here.
 *
 * Not here: the user and group ids (ids.c, an object of its own so that
 * only the programs that use them link them), signals beyond kill,
 * threads, locale.  Single-threaded: no lock.
 *
 * Tests: tests/e2e/test_proc.py (/bin/syscheck), tests/e2e/test_mem.py
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "userland/libc/sonde.h"

char **environ;
extern int main(int argc, char **argv, char **envp);
/* The linker's constructor and destructor tables (newlib's own walk of them is not built here). */
extern void (*__preinit_array_start[])(void) __attribute__((weak));
extern void (*__preinit_array_end[])(void) __attribute__((weak));
extern void (*__init_array_start[])(void) __attribute__((weak));
extern void (*__init_array_end[])(void) __attribute__((weak));
extern void (*__fini_array_start[])(void) __attribute__((weak));
extern void (*__fini_array_end[])(void) __attribute__((weak));

/* sys6: the machine's system call instruction (userland/libc/<machine>/sys6.h). */
#include "sys6.h"

long sonde_syscall(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
	return sys6(nr, a0, a1, a2, a3, a4, a5);
}

#define SYS0(n)             sys6(SYS_##n, 0, 0, 0, 0, 0, 0)
#define SYS1(n, a)          sys6(SYS_##n, (long)(a), 0, 0, 0, 0, 0)
#define SYS2(n, a, b)       sys6(SYS_##n, (long)(a), (long)(b), 0, 0, 0, 0)
#define SYS3(n, a, b, c)    sys6(SYS_##n, (long)(a), (long)(b), (long)(c), 0, 0, 0)

/* sys_result: Linux's -errno convention to C's (-1 and errno). */
static long sys_result(long r)
{
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

/* run_fini: the destructors, last first (registered with atexit). */
static void run_fini(void)
{
	for (long i = __fini_array_end - __fini_array_start; i > 0; i--)
		__fini_array_start[i - 1]();
}

void sonde_start(int argc, char **argv, char **envp);

/* sonde_start: crt0.S's continuation: constructors, main, exit. */
void sonde_start(int argc, char **argv, char **envp)
{
	environ = envp;
	atexit(run_fini);
	for (long i = 0; i < __preinit_array_end - __preinit_array_start; i++)
		__preinit_array_start[i]();
	for (long i = 0; i < __init_array_end - __init_array_start; i++)
		__init_array_start[i]();
	exit(main(argc, argv, envp));
}

void _exit(int status)
{
	for (;;)
		SYS1(exit_group, status);
}

int read(int fd, void *buf, size_t n)      { return (int)sys_result(SYS3(read, fd, buf, n)); }
int write(int fd, const void *buf, size_t n) { return (int)sys_result(SYS3(write, fd, buf, n)); }
/* open_flags: newlib's open(2) flags as Linux's, which the kernel takes. */
static long open_flags(int flags)
{
	static const struct { int nl, lx; } map[] = {
		{ 0x0008, 02000 },           /* O_APPEND */
		{ 0x0200, 0100 },            /* O_CREAT */
		{ 0x0400, 01000 },           /* O_TRUNC */
		{ 0x0800, 0200 },            /* O_EXCL */
		{ 0x200000, 0200000 },       /* O_DIRECTORY */
		{ 0x4000, 04000 },           /* O_NONBLOCK */
	};
	long lx = flags & 3;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (flags & map[i].nl)
			lx |= map[i].lx;
	return lx;
}

int open(const char *path, int flags, ...)
{
	return (int)sys_result(SYS3(open, path, open_flags(flags), 0644));
}
/* creat: the creat system call (newlib's would be an open). */
int creat(const char *path, mode_t mode)   { return (int)sys_result(SYS2(creat, path, mode)); }
int unlink(const char *path)               { return (int)sys_result(SYS1(unlink, path)); }
void sync(void)                            { (void)SYS0(sync); }
int fsync(int fd)                          { return (int)sys_result(SYS1(fsync, fd)); }
int fdatasync(int fd)                      { return (int)sys_result(SYS1(fdatasync, fd)); }
int mkdir(const char *path, mode_t mode)   { return (int)sys_result(SYS2(mkdir, path, mode)); }
int rmdir(const char *path)                { return (int)sys_result(SYS1(rmdir, path)); }
int sonde_getdents64(int fd, void *buf, size_t n) { return (int)sys_result(SYS3(getdents64, fd, buf, n)); }
int close(int fd)                          { return (int)sys_result(SYS1(close, fd)); }
off_t lseek(int fd, off_t off, int whence) { return (off_t)sys_result(SYS3(lseek, fd, off, whence)); }
int getpid(void)                           { return (int)sys_result(SYS0(getpid)); }
pid_t getppid(void)                        { return (pid_t)sys_result(SYS0(getppid)); }
int kill(int pid, int sig)                 { return (int)sys_result(SYS2(kill, pid, sig)); }

/* Linux x86-64's struct stat: what the kernel writes. */
struct linux_stat {
	uint64_t st_dev, st_ino, st_nlink;
	uint32_t st_mode, st_uid, st_gid, pad0;
	uint64_t st_rdev;
	int64_t st_size, st_blksize, st_blocks;
	uint64_t st_atime_, st_atime_ns, st_mtime_, st_mtime_ns, st_ctime_, st_ctime_ns;
	int64_t reserved[3];
};

/* stat_from_linux: the kernel's struct stat as newlib's. */
static void stat_from_linux(struct stat *st, const struct linux_stat *ls);

int fstat(int fd, struct stat *st)
{
	struct linux_stat ls;

	if (sys_result(SYS2(fstat, fd, &ls)) < 0)
		return -1;
	stat_from_linux(st, &ls);
	return 0;
}

int stat(const char *path, struct stat *st)
{
	struct linux_stat ls;

	if (sys_result(SYS2(stat, path, &ls)) < 0)
		return -1;
	stat_from_linux(st, &ls);
	return 0;
}

int lstat(const char *path, struct stat *st)
{
	return stat(path, st);
}

static void stat_from_linux(struct stat *st, const struct linux_stat *lsp)
{
	struct linux_stat ls = *lsp;

	memset(st, 0, sizeof(*st));
	st->st_dev = (dev_t)ls.st_dev;
	st->st_ino = (ino_t)ls.st_ino;
	st->st_mode = (mode_t)ls.st_mode;
	st->st_nlink = (nlink_t)ls.st_nlink;
	st->st_rdev = (dev_t)ls.st_rdev;
	st->st_size = (off_t)ls.st_size;
	st->st_blksize = (blksize_t)ls.st_blksize;
	st->st_blocks = (blkcnt_t)ls.st_blocks;
}

/* isatty: TCGETS succeeds on a terminal (the console), as on Linux. */
int isatty(int fd)
{
	unsigned char termios[64];

	return sys_result(SYS3(ioctl, fd, 0x5401, termios)) == 0;
}

/* sbrk: on top of brk, which returns the new break (the old one if it could not move). */
void *sbrk(ptrdiff_t incr)
{
	static uintptr_t cur;

	if (cur == 0)
		cur = (uintptr_t)SYS1(brk, 0);
	uintptr_t old = cur, want = cur + (uintptr_t)incr;
	if (incr != 0 && (uintptr_t)SYS1(brk, want) != want) {
		errno = ENOMEM;
		return (void *)-1;
	}
	cur = want;
	return (void *)old;
}

pid_t fork(void)                           { return (pid_t)sys_result(SYS0(fork)); }
int pipe(int fds[2])                       { return (int)sys_result(SYS1(pipe, fds)); }
int dup2(int from, int to)                 { return (int)sys_result(SYS2(dup2, from, to)); }
int sched_yield(void)                      { return (int)sys_result(SYS0(sched_yield)); }

int execve(const char *path, char *const argv[], char *const envp[])
{
	return (int)sys_result(SYS3(execve, path, argv, envp));
}

pid_t waitpid(pid_t pid, int *status, int options)
{
	return (pid_t)sys_result(sys6(SYS_wait4, pid, (long)status, options, 0, 0, 0));
}

pid_t wait(int *status)
{
	return waitpid(-1, status, 0);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	long r = sys6(SYS_mmap, (long)addr, (long)len, prot, flags, fd, (long)off);

	return sys_result(r) == -1 ? MAP_FAILED : (void *)r;
}

int munmap(void *addr, size_t len)         { return (int)sys_result(SYS2(munmap, addr, len)); }

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	return (int)sys_result(SYS2(nanosleep, req, rem));
}

unsigned sleep(unsigned seconds)
{
	struct timespec ts = { (time_t)seconds, 0 };

	return nanosleep(&ts, NULL) == 0 ? 0 : seconds;
}

int clock_gettime(clockid_t clock, struct timespec *ts)
{
	return (int)sys_result(SYS2(clock_gettime, clock, ts));
}

clock_t times(struct tms *buf)
{
	memset(buf, 0, sizeof(*buf));
	return 0;
}
