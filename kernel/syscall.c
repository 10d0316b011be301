/*
 * syscall.c - the system calls: the dispatcher and the calls themselves.
 *
 * The table comes from kernel/syscalls.def (number, name, argument
 * count): syscall_dispatch() indexes it by number and calls sys_<name>
 * with the six argument registers.  A name in the table whose sys_<name>
 * is not linked into the kernel is a weak reference that stays NULL, so
 * its number returns ENOSYS, as every number outside the table does.
 *
 * Semantics are Linux x86-64's for the subset there is.  Pointer
 * arguments are user addresses and are only ever touched through
 * arch_copyin/arch_copyout/arch_copyinstr: a bad one is EFAULT, never a
 * kernel fault.  Data moves through small kernel buffers on the stack, a
 * chunk at a time.  Handlers run in the calling process's thread, with
 * interrupts on, and may sleep.
 */
#include "arch/arch.h"
#include "kernel/file.h"
#include "kernel/klib.h"
#include "kernel/proc.h"
#include "kernel/thread.h"
#include "kernel/time.h"

#define SYSCALL_MAX 512
#define IO_CHUNK    512
#define TCGETS      0x5401

typedef int64_t syscall_fn(const uint64_t a[6]);

#define SYSCALL(nr, name, nargs) syscall_fn sys_##name __attribute__((weak));
#include "kernel/syscalls.def"

struct syscall_entry {
	const char *se_name;
	int se_nargs;
	syscall_fn *se_fn;
};

static const struct syscall_entry syscall_table[SYSCALL_MAX] = {
#define SYSCALL(nr, name, nargs) [nr] = { #name, nargs, sys_##name },
#include "kernel/syscalls.def"
};

int64_t syscall_dispatch(uint64_t nr, const uint64_t args[6])
{
	if (nr >= SYSCALL_MAX || syscall_table[nr].se_fn == NULL)
		return -ENOSYS;
	return syscall_table[nr].se_fn(args);
}

/* fd_file: the open file behind descriptor fd of the current process, or NULL. */
static struct file *fd_file(uint64_t fd)
{
	struct proc *p = curproc();

	return fd < PROC_FILES ? p->p_files[fd] : NULL;
}

/* --- files ------------------------------------------------------------------- */

int64_t sys_read(const uint64_t a[6])
{
	struct file *f = fd_file(a[0]);
	char buf[IO_CHUNK];

	if (f == NULL)
		return -EBADF;
	if (f->f_ops->fo_read == NULL)
		return -EBADF;
	int64_t r = f->f_ops->fo_read(f, buf, MIN(a[2], sizeof(buf)));
	if (r > 0 && arch_copyout(a[1], buf, (size_t)r) < 0)
		return -EFAULT;
	return r;
}

int64_t sys_write(const uint64_t a[6])
{
	struct file *f = fd_file(a[0]);
	char buf[IO_CHUNK];
	uint64_t done = 0;

	if (f == NULL || f->f_ops->fo_write == NULL)
		return -EBADF;
	while (done < a[2]) {
		size_t n = MIN(a[2] - done, sizeof(buf));
		if (arch_copyin(buf, a[1] + done, n) < 0)
			return done > 0 ? (int64_t)done : -EFAULT;
		int64_t r = f->f_ops->fo_write(f, buf, n);
		if (r <= 0)
			return done > 0 ? (int64_t)done : r;
		done += (uint64_t)r;
	}
	return (int64_t)done;
}

int64_t sys_close(const uint64_t a[6])
{
	struct proc *p = curproc();

	if (fd_file(a[0]) == NULL)
		return -EBADF;
	file_unref(p->p_files[a[0]]);
	p->p_files[a[0]] = NULL;
	return 0;
}

/* Linux x86-64's struct stat, as fstat writes it. */
struct linux_stat {
	uint64_t st_dev, st_ino, st_nlink;
	uint32_t st_mode, st_uid, st_gid, pad0;
	uint64_t st_rdev;
	int64_t st_size, st_blksize, st_blocks;
	uint64_t st_times[6];
	int64_t reserved[3];
};

int64_t sys_fstat(const uint64_t a[6])
{
	struct file *f = fd_file(a[0]);
	struct linux_stat st;

	if (f == NULL)
		return -EBADF;
	memset(&st, 0, sizeof(st));
	st.st_mode = f->f_ops->fo_mode | 0666;
	st.st_nlink = 1;
	st.st_blksize = 1024;
	return arch_copyout(a[1], &st, sizeof(st)) < 0 ? -EFAULT : 0;
}

int64_t sys_lseek(const uint64_t a[6])
{
	return fd_file(a[0]) == NULL ? -EBADF : -ESPIPE;
}

int64_t sys_ioctl(const uint64_t a[6])
{
	struct file *f = fd_file(a[0]);
	unsigned char termios[36];           /* Linux's struct termios */

	if (f == NULL)
		return -EBADF;
	if (a[1] != TCGETS || !f->f_ops->fo_tty)
		return -ENOTTY;
	memset(termios, 0, sizeof(termios));
	return arch_copyout(a[2], termios, sizeof(termios)) < 0 ? -EFAULT : 0;
}

/* --- the process ---------------------------------------------------------------- */

int64_t sys_exit(const uint64_t a[6])
{
	proc_exit((int)(a[0] & 0xff) << 8);
}

int64_t sys_exit_group(const uint64_t a[6])
{
	proc_exit((int)(a[0] & 0xff) << 8);
}

int64_t sys_getpid(const uint64_t a[6])
{
	(void)a;
	return curproc()->p_pid;
}

int64_t sys_getppid(const uint64_t a[6])
{
	(void)a;
	return curproc()->p_ppid;
}

int64_t sys_brk(const uint64_t a[6])
{
	return (int64_t)proc_brk(curproc(), a[0]);
}

int64_t sys_sched_yield(const uint64_t a[6])
{
	(void)a;
	thread_yield();
	return 0;
}

/* --- time and the system ---------------------------------------------------------- */

struct linux_timespec {
	int64_t tv_sec, tv_nsec;
};

int64_t sys_nanosleep(const uint64_t a[6])
{
	struct linux_timespec ts;

	if (arch_copyin(&ts, a[0], sizeof(ts)) < 0)
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= (int64_t)NSEC_PER_SEC)
		return -EINVAL;
	if ((uint64_t)ts.tv_sec > 1000000000UL)
		ts.tv_sec = 1000000000;
	thread_sleep_ns((uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec);
	return 0;
}

int64_t sys_clock_gettime(const uint64_t a[6])
{
	uint64_t now = ktime_ns();
	struct linux_timespec ts = { (int64_t)(now / NSEC_PER_SEC), (int64_t)(now % NSEC_PER_SEC) };

	if (a[0] != 0 && a[0] != 1)             /* CLOCK_REALTIME (since boot), CLOCK_MONOTONIC */
		return -EINVAL;
	return arch_copyout(a[1], &ts, sizeof(ts)) < 0 ? -EFAULT : 0;
}

int64_t sys_uname(const uint64_t a[6])
{
	char u[6][65];

	memset(u, 0, sizeof(u));
	kstrlcpy(u[0], "Sonde", sizeof(u[0]));
	kstrlcpy(u[1], "sonde", sizeof(u[1]));
	kstrlcpy(u[2], "0.1", sizeof(u[2]));
	kstrlcpy(u[3], "Sonde 0.1", sizeof(u[3]));
	kstrlcpy(u[4], ARCH_MACHINE_NAME, sizeof(u[4]));
	return arch_copyout(a[0], u, sizeof(u)) < 0 ? -EFAULT : 0;
}

int64_t sys_getcwd(const uint64_t a[6])
{
	if (a[1] < 2)
		return -ERANGE;
	return arch_copyout(a[0], "/", 2) < 0 ? -EFAULT : 2;
}
