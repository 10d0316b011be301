/*
 * proccheck - the process system calls, checked from user mode: fork,
 * execve, wait4, exit, getpid/getppid, kill, brk, mmap/munmap, pipe, dup2,
 * open, lseek, fstat, /dev/null and /dev/zero.
 * Prints "ok" or "not ok" per check and "N failed"; exit status 0 when all
 * passed.  The FPU check runs two processes that compute with SSE at once,
 * so each must see its own registers.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "userland/libc/sonde.h"

static int failures;

static void check(const char *what, int ok)
{
	printf("%s %s\n", ok ? "ok" : "not ok", what);
	failures += !ok;
}

static void check_fork_wait(void)
{
	int status = 0;
	pid_t parent = getpid(), child = fork();

	if (child == 0)
		_exit(getppid() == parent ? 42 : 1);
	check("fork returns the child's pid", child > parent);
	check("waitpid returns it", waitpid(child, &status, 0) == child);
	check("the child saw its parent and exit(42)", WIFEXITED(status) && WEXITSTATUS(status) == 42);
	check("no child left: ECHILD", waitpid(-1, &status, 0) == -1 && errno == ECHILD);
}

static void check_kill(void)
{
	int status = 0;
	pid_t child = fork();

	if (child == 0)
		for (;;)
			sched_yield();
	check("kill(child, SIGTERM)", kill(child, 15) == 0);
	check("it died of SIGTERM", waitpid(child, &status, 0) == child && WIFSIGNALED(status) &&
	      WTERMSIG(status) == 15);
	check("kill(no such pid): ESRCH", kill(99999, 15) == -1 && errno == ESRCH);
	child = fork();
	if (child == 0)
		*(volatile int *)0 = 1;
	check("a child's fault is SIGSEGV to its parent", waitpid(child, &status, 0) == child &&
	      WIFSIGNALED(status) && WTERMSIG(status) == 11);
}

static void check_exec(void)
{
	int status = 0;
	pid_t child = fork();

	if (child == 0) {
		char *argv[] = { "/bin/false", NULL };
		execve("/bin/false", argv, NULL);
		_exit(7);
	}
	check("execve /bin/false: status 1", waitpid(child, &status, 0) == child &&
	      WIFEXITED(status) && WEXITSTATUS(status) == 1);
	char *argv[] = { "/bin/nope", NULL };
	check("execve of no file: ENOENT", execve("/bin/nope", argv, NULL) == -1 && errno == ENOENT);
	check("execve of bad path pointer: EFAULT",
	      sonde_syscall(SYS_execve, 8, (long)argv, 0, 0, 0, 0) == -EFAULT);
	char *bad[] = { "/bin/true", (char *)0xffffffff80000000UL, NULL };
	check("execve of bad argv string: EFAULT",
	      sonde_syscall(SYS_execve, (long)"/bin/true", (long)bad, 0, 0, 0, 0) == -EFAULT);
}

/*
 * user_top: the first address above the user half, which is the machine's
 * (ARCH_USER_TOP: 0x800000000000 on x86_64, 0x80000000000 on sparc64).
 * The kernel puts the stack's top page just under it (kernel/proc_exec.c),
 * so it is the power of two above a local variable's address.
 */
static unsigned long user_top(void)
{
	volatile char here = 0;
	unsigned long a = (unsigned long)&here, top = 1;

	while (top != 0 && top <= a)
		top <<= 1;
	return top;
}

static void check_memory(void)
{
	char *p = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	check("mmap anonymous", p != MAP_FAILED);
	if (p == MAP_FAILED)
		return;
	check("it is zero", p[0] == 0 && p[3 * 4096 - 1] == 0);
	memset(p, 'a', 3 * 4096);
	check("munmap", munmap(p, 3 * 4096) == 0);
	check("mmap W+X: EACCES", mmap(NULL, 4096, PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
	                               -1, 0) == MAP_FAILED && errno == EACCES);
	check("mmap of more than a process may hold: ENOMEM",
	      mmap(NULL, 128 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) ==
	      MAP_FAILED && errno == ENOMEM);
	check("munmap unaligned: EINVAL", munmap(p + 1, 4096) == -1 && errno == EINVAL);
	/* From the mmap base (an eighth of the way up) to below the stack. */
	unsigned long eighth = user_top() / 8;
	check("munmap of the whole user half", sonde_syscall(SYS_munmap, (long)eighth,
	                                                     (long)(6 * eighth), 0, 0, 0, 0) == 0);
	char *brk0 = sbrk(0), *grown = sbrk(1 << 20);
	check("sbrk grows", grown == brk0);
	grown[(1 << 20) - 1] = 1;
	check("brk below the base is refused", sonde_syscall(SYS_brk, 0x1000, 0, 0, 0, 0, 0) ==
	      (long)(brk0 + (1 << 20)));
	int status = 0;
	pid_t child = fork();
	if (child == 0)
		_exit(grown[(1 << 20) - 1] == 1 ? 0 : 1);
	check("the child has a copy of the heap", waitpid(child, &status, 0) == child &&
	      WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void check_pipes(void)
{
	int fds[2];
	char buf[8] = { 0 };

	check("pipe", pipe(fds) == 0);
	check("write to a pipe", write(fds[1], "hi", 2) == 2);
	check("read it back", read(fds[0], buf, sizeof(buf)) == 2 && strcmp(buf, "hi") == 0);
	check("dup2", dup2(fds[1], 9) == 9 && write(9, "x", 1) == 1 && read(fds[0], buf, 1) == 1);
	close(fds[1]);
	close(9);
	check("end of file once no writer is left", read(fds[0], buf, 1) == 0);
	check("pipe(bad pointer): EFAULT", sonde_syscall(SYS_pipe, 16, 0, 0, 0, 0, 0) == -EFAULT);
	close(fds[0]);
	check("dup2 of a closed fd: EBADF", dup2(fds[0], 5) == -1 && errno == EBADF);
	/* no reader: the write fails with EPIPE and SIGPIPE kills the writer (there are no handlers) */
	pid_t c = fork();
	if (c == 0) {
		if (pipe(fds) == 0 && close(fds[0]) == 0)
			write(fds[1], "x", 1);
		_exit(0);
	}
	int st = 0;
	check("pipe(fds) then no reader: SIGPIPE", c > 0 && waitpid(c, &st, 0) == c &&
	      WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE);
}

/* fpu_work: a floating-point sum that only comes out right if nobody else's registers leak in. */
static int fpu_work(double seed)
{
	volatile double acc = 0;

	for (int i = 0; i < 2000000; i++) {
		acc += seed;
		if ((i & 0xffff) == 0)
			sched_yield();
	}
	return acc == seed * 2000000 ? 0 : 1;
}

static void check_files(void)
{
	char buf[16] = { 0 };
	struct stat st;
	int fd = open("/scripts/hello.d", O_RDONLY);

	check("open a boot file", fd >= 3);
	check("fstat gives its size", fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 10);
	check("lseek to its end", lseek(fd, 0, SEEK_END) == st.st_size && read(fd, buf, 1) == 0);
	check("lseek back and read", lseek(fd, 0, SEEK_SET) == 0 && read(fd, buf, 2) == 2);
	close(fd);
	check("open of no file: ENOENT", open("/nope", O_RDONLY) == -1 && errno == ENOENT);
	check("open a boot file to write: EROFS", open("/scripts/hello.d", O_WRONLY) == -1 &&
	      errno == EROFS);
	check("open(bad pointer): EFAULT", sonde_syscall(SYS_open, 0x10, 0, 0, 0, 0, 0) == -EFAULT);
	fd = open("/dev/null", O_RDWR);
	check("/dev/null takes writes, reads nothing", write(fd, "abc", 3) == 3 && read(fd, buf, 4) == 0);
	close(fd);
	fd = open("/dev/zero", O_RDONLY);
	memset(buf, 'x', sizeof(buf));
	check("/dev/zero reads zeros", read(fd, buf, 8) == 8 && buf[0] == 0 && buf[7] == 0);
	char *z = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	check("mmap of /dev/zero", z != MAP_FAILED && z[0] == 0 && z[8191] == 0);
	if (z != MAP_FAILED)
		munmap(z, 8192);
	close(fd);
}

static void check_fpu(void)
{
	int status = 0;
	pid_t child = fork();

	if (child == 0)
		_exit(fpu_work(0.25));
	int mine = fpu_work(0.5);
	check("two processes' SSE registers stay apart", mine == 0 && waitpid(child, &status, 0) == child
	      && WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(void)
{
	check_fork_wait();
	check_kill();
	check_exec();
	check_memory();
	check_pipes();
	check_files();
	check_fpu();
	printf("%d failed\n", failures);
	return failures != 0;
}
