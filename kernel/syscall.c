/*
 * syscall.c - the system calls: the dispatcher and the calls themselves.
 *
 * The table comes from kernel/syscalls.def (number, name, argument
 * count): syscall_dispatch() indexes it by number and calls sys_<name>
 * with the six argument registers, through a slot the syscall provider may
 * route through its probes (kernel/syscall.h).  A name in the table whose sys_<name>
 * is not linked into the kernel is a weak reference that stays NULL, so
 * its number returns ENOSYS, as every number outside the table does.
 *
 * Semantics are Linux x86-64's for the subset there is.  Pointer
 * arguments are user addresses and are only ever touched through
 * arch_copyin/arch_copyout/arch_copyinstr: a bad one is EFAULT, never a
 * kernel fault.  Data moves through small kernel buffers on the stack, a
 * chunk at a time.  Handlers run in the calling process's thread, with
 * interrupts on, and may sleep.
 *
 * Tests: tests/e2e/test_proc.py (/bin/syscheck, /bin/sysfuzz); tests/d/proc
 */
#include "arch/arch.h"
#include "kernel/cpu.h"
#include "kernel/file.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/proc.h"
#include "kernel/sdt.h"
#include "kernel/syscall.h"
#include "kernel/thread.h"
#include "kernel/time.h"

#define IO_CHUNK    512
#define TCGETS      0x5401

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

/* The slots the dispatcher calls through: the handlers, or a tracing stub (syscall_route). */
static syscall_fn *syscall_slot[SYSCALL_MAX] = {
#define SYSCALL(nr, name, nargs) [nr] = sys_##name,
#include "kernel/syscalls.def"
};

int64_t syscall_dispatch(uint64_t nr, const uint64_t args[6])
{
	syscall_fn *fn = nr < SYSCALL_MAX ? __atomic_load_n(&syscall_slot[nr], __ATOMIC_RELAXED) : NULL;

	if (fn == NULL)
		return -ENOSYS;
	curthread()->t_sysnum = (uint32_t)nr;
	SYSINFO_ADD(syscall, 1);                    /* mpstat's syscl */
	return fn(args);
}

const char *syscall_name(uint64_t nr, int *nargs)
{
	if (nr >= SYSCALL_MAX || syscall_table[nr].se_name == NULL)
		return NULL;
	*nargs = syscall_table[nr].se_nargs;
	return syscall_table[nr].se_name;
}

syscall_fn *syscall_handler(uint64_t nr)
{
	return nr < SYSCALL_MAX ? syscall_table[nr].se_fn : NULL;
}

void syscall_route(uint64_t nr, syscall_fn *fn)
{
	if (nr < SYSCALL_MAX && syscall_table[nr].se_name != NULL)
		__atomic_store_n(&syscall_slot[nr], fn != NULL ? fn : syscall_table[nr].se_fn,
		                 __ATOMIC_RELEASE);
}

static int fd_alloc(struct proc *p, struct file *f);

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
	DTRACE_PROBE2(fsinfo__read, f, a[2]);
	SYSINFO_ADD(sysread, 1);
	int64_t r = f->f_ops->fo_read(f, buf, MIN(a[2], sizeof(buf)));
	if (r > 0 && arch_copyout(a[1], buf, (size_t)r) < 0)
		return -EFAULT;
	if (r >= 0)
		SYSINFO_ADD(readch, r);                 /* a successful read: its bytes */
	return r;
}

/* sys_write_all: write(2)'s loop: n bytes from user address ubuf, in chunks; bytes written or -errno. */
static int64_t sys_write_all(struct file *f, uint64_t ubuf, uint64_t len)
{
	char buf[IO_CHUNK];
	uint64_t done = 0;

	while (done < len) {
		size_t n = MIN(len - done, sizeof(buf));
		if (arch_copyin(buf, ubuf + done, n) < 0)
			return done > 0 ? (int64_t)done : -EFAULT;
		int64_t r = f->f_ops->fo_write(f, buf, n);
		if (r == -EPIPE && done == 0)
			proc_kill(curproc()->p_pid, SIGPIPE);   /* taken on the way back to user mode */
		if (r <= 0)
			return done > 0 ? (int64_t)done : r;
		done += (uint64_t)r;
	}
	return (int64_t)done;
}

int64_t sys_write(const uint64_t a[6])
{
	struct file *f = fd_file(a[0]);

	if (f == NULL || f->f_ops->fo_write == NULL)
		return -EBADF;
	DTRACE_PROBE2(fsinfo__write, f, a[2]);
	SYSINFO_ADD(syswrite, 1);
	int64_t r = sys_write_all(f, a[1], a[2]);
	if (r >= 0)
		SYSINFO_ADD(writech, r);                /* a successful write: its bytes */
	return r;
}

int64_t sys_close(const uint64_t a[6])
{
	struct proc *p = curproc();

	if (fd_file(a[0]) == NULL)
		return -EBADF;
	DTRACE_PROBE2(fsinfo__close, p->p_files[a[0]], 0);
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

/* stat_out: st as Linux's struct stat at user address uaddr; 0 or -EFAULT. */
static int64_t stat_out(uint64_t uaddr, const struct file_stat *fs)
{
	struct linux_stat st;

	memset(&st, 0, sizeof(st));
	st.st_mode = fs->fs_mode;
	st.st_ino = fs->fs_ino;
	st.st_nlink = fs->fs_nlink;
	st.st_size = (int64_t)fs->fs_size;
	st.st_blksize = 4096;
	st.st_blocks = (int64_t)((fs->fs_size + 511) / 512);
	return arch_copyout(uaddr, &st, sizeof(st)) < 0 ? -EFAULT : 0;
}

int64_t sys_fstat(const uint64_t a[6])
{
	struct file *f = fd_file(a[0]);
	struct file_stat fs;

	if (f == NULL)
		return -EBADF;
	DTRACE_PROBE2(fsinfo__getattr, f, 0);
	file_stat_of(f, &fs);
	return stat_out(a[1], &fs);
}

/* path_in: copy the user path at uaddr into buf (256 bytes); 0, -EFAULT or -ENAMETOOLONG. */
static int path_in(char *buf, size_t size, uint64_t uaddr)
{
	long n = arch_copyinstr(buf, uaddr, size);

	if (n < 0)
		return n == -1 ? -EFAULT : -ENAMETOOLONG;
	return 0;
}

/*
 * fsinfo_path: fire fsinfo's probe for a call on a path (lookup, remove,
 * mkdir ...): args[0] the path's fileinfo_t (a struct file that is only a
 * name), arg1 0.  The probes are sdt sites named fsinfo__<op>
 * (trace/prov_sdt.c publishes them as fsinfo:::<op>), so each call has its
 * own site here.  Normalising the path into a struct file is real work, so
 * it and the site sit behind the name's is-enabled test (kernel/sdt.h):
 * with no fsinfo probe of that name enabled a call pays one load and a
 * branch not taken.
 */
#define FSINFO_PATH(op, path) do { \
	if (SDT_ENABLED(fsinfo__##op)) { \
		char fp_buf_[258]; \
		struct file fp_nf_; \
		file_name_path((path), &fp_nf_, fp_buf_, sizeof(fp_buf_)); \
		DTRACE_PROBE2(fsinfo__##op, &fp_nf_, 0); \
	} \
} while (0)

int64_t sys_stat(const uint64_t a[6])
{
	char path[256];
	struct file_stat fs;
	int r = path_in(path, sizeof(path), a[0]);

	if (r == 0) {
		FSINFO_PATH(lookup, path);
		FSINFO_PATH(getattr, path);
		r = file_stat(path, &fs);
	}
	return r < 0 ? r : stat_out(a[1], &fs);
}

int64_t sys_lstat(const uint64_t a[6])
{
	return sys_stat(a);                        /* no symbolic links */
}

/* sync(2): every change on the disk before it returns (Linux's sync returns nothing; 0 here). */
int64_t sys_sync(const uint64_t a[6])
{
	(void)a;
	file_sync();
	return 0;
}

/* fsync(2): the file's data and metadata on the disk (biowait done) before it returns. */
int64_t sys_fsync(const uint64_t a[6])
{
	struct file *f = fd_file(a[0]);

	return f == NULL ? -EBADF : file_fsync(f);
}

/* fdatasync(2): fsync's, since the inode goes with the data anyway. */
int64_t sys_fdatasync(const uint64_t a[6])
{
	return sys_fsync(a);
}

int64_t sys_unlink(const uint64_t a[6])
{
	char path[256];
	int r = path_in(path, sizeof(path), a[0]);

	if (r < 0)
		return r;
	FSINFO_PATH(lookup, path);
	FSINFO_PATH(remove, path);
	return file_unlink(path);
}

int64_t sys_mkdir(const uint64_t a[6])
{
	char path[256];
	int r = path_in(path, sizeof(path), a[0]);

	if (r < 0)
		return r;
	FSINFO_PATH(lookup, path);
	FSINFO_PATH(mkdir, path);
	return file_mkdir(path);                  /* the mode is not kept: no permissions */
}

int64_t sys_rmdir(const uint64_t a[6])
{
	char path[256];
	int r = path_in(path, sizeof(path), a[0]);

	if (r < 0)
		return r;
	FSINFO_PATH(lookup, path);
	FSINFO_PATH(rmdir, path);
	return file_rmdir(path);
}

int64_t sys_rename(const uint64_t a[6])
{
	char from[256], to[256];
	int r = path_in(from, sizeof(from), a[0]);

	if (r == 0)
		r = path_in(to, sizeof(to), a[1]);
	if (r < 0)
		return r;
	FSINFO_PATH(lookup, from);
	FSINFO_PATH(rename, from);
	return file_rename(from, to);
}

/* dirent_encode: de as a struct linux_dirent64 in rec (next: the offset after it); its length. */
static size_t dirent_encode(const struct file_dirent *de, uint64_t next, unsigned char *rec)
{
	size_t nlen = strlen(de->de_name);
	size_t reclen = (19 + nlen + 1 + 7) & ~(size_t)7;     /* ino, off, reclen, type, name, NUL */
	uint16_t rl = (uint16_t)reclen;

	memset(rec, 0, reclen);
	memcpy(rec, &de->de_ino, 8);
	memcpy(rec + 8, &next, 8);
	memcpy(rec + 16, &rl, 2);
	rec[18] = de->de_type;
	memcpy(rec + 19, de->de_name, nlen);
	return reclen;
}

/*
 * getdents64: as many of the directory's entries as fit in the user's
 * buffer, as Linux's struct linux_dirent64 (8-byte aligned records); the
 * file offset is the index of the next entry.  0 at the end, -EINVAL if
 * not even one fits, -ENOTDIR for a file that is not a directory.
 */
int64_t sys_getdents64(const uint64_t a[6])
{
	struct file *f = fd_file(a[0]);
	unsigned char rec[FILE_NAME_MAX + 32];
	uint64_t done = 0;
	int64_t r = 0;

	if (f == NULL)
		return -EBADF;
	if (f->f_ops->fo_readdir == NULL)
		return -ENOTDIR;
	DTRACE_PROBE2(fsinfo__readdir, f, a[2]);
	struct file_dirent *de = kmalloc(sizeof(*de));
	if (de == NULL)
		return -ENOMEM;
	while ((r = f->f_ops->fo_readdir(f, f->f_off, de)) > 0) {
		size_t reclen = dirent_encode(de, f->f_off + 1, rec);
		if (done + reclen > a[2]) {
			r = done == 0 ? -EINVAL : 0;
			break;
		}
		if (arch_copyout(a[1] + done, rec, reclen) < 0) {
			r = -EFAULT;
			break;
		}
		done += reclen;
		f->f_off++;
	}
	kfree(de);
	return r < 0 ? r : (int64_t)done;
}

int64_t sys_lseek(const uint64_t a[6])
{
	struct file *f = fd_file(a[0]);
	int64_t off = (int64_t)a[1];

	if (f == NULL)
		return -EBADF;
	if (f->f_ops->fo_size == NULL)
		return -ESPIPE;
	if (a[2] == 1)                             /* SEEK_CUR */
		off += (int64_t)f->f_off;
	else if (a[2] == 2)                        /* SEEK_END */
		off += (int64_t)f->f_ops->fo_size(f);
	else if (a[2] != 0)                        /* not SEEK_SET */
		return -EINVAL;
	if (off < 0)
		return -EINVAL;
	DTRACE_PROBE2(fsinfo__seek, f, off);
	f->f_off = (uint64_t)off;
	return off;
}

/* open_path: open(2) of the user path upath with Linux's flags: a new descriptor or -errno. */
static int64_t open_path(uint64_t upath, int flags)
{
	struct proc *p = curproc();
	char path[256];
	struct file *f;
	int r = path_in(path, sizeof(path), upath);

	if (r < 0)
		return r;
	FSINFO_PATH(lookup, path);
	if (flags & FILE_O_CREAT)
		FSINFO_PATH(create, path);
	r = file_open(path, flags, &f);
	if (r < 0)
		return r;
	DTRACE_PROBE2(fsinfo__open, f, flags);
	if ((r = fd_alloc(p, f)) < 0)
		file_unref(f);
	return r;
}

int64_t sys_open(const uint64_t a[6])
{
	return open_path(a[0], (int)a[1]);
}

/* creat: open(path, O_WRONLY | O_CREAT | O_TRUNC), as creat(2) has always been (no modes here). */
int64_t sys_creat(const uint64_t a[6])
{
	return open_path(a[0], FILE_O_WRONLY | FILE_O_CREAT | FILE_O_TRUNC);
}

int64_t sys_ioctl(const uint64_t a[6])
{
	struct file *f = fd_file(a[0]);
	unsigned char termios[36];           /* Linux's struct termios */

	if (f == NULL)
		return -EBADF;
	DTRACE_PROBE2(fsinfo__ioctl, f, a[1]);
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

/* --- processes ----------------------------------------------------------------- */

int64_t sys_fork(const uint64_t a[6])
{
	(void)a;
	SYSINFO_ADD(sysfork, 1);
	return proc_fork();
}

/* execve_args: copy argv (a user array of user strings) into buf; argc, or a negative errno. */
static int execve_args(uint64_t uargv, char *buf, char **argv)
{
	size_t used = 0;
	int argc = 0;

	for (;; argc++) {
		uint64_t ptr;
		if (arch_copyin(&ptr, uargv + (uint64_t)argc * 8, 8) < 0)
			return -EFAULT;
		if (ptr == 0)
			return argc;
		if (argc == PROC_ARGC_MAX)
			return -E2BIG;
		long n = arch_copyinstr(buf + used, ptr, PROC_ARG_MAX - used);
		if (n < 0)
			return n == -1 ? -EFAULT : -E2BIG;
		argv[argc] = buf + used;
		used += (size_t)n + 1;
	}
}

int64_t sys_execve(const uint64_t a[6])
{
	char path[256];
	long n = arch_copyinstr(path, a[0], sizeof(path));

	SYSINFO_ADD(sysexec, 1);
	if (n < 0)
		return n == -1 ? -EFAULT : -ENAMETOOLONG;
	/* On the stack, not the heap: a successful exec never returns here to free them. */
	char buf[PROC_ARG_MAX];
	char *argv[PROC_ARGC_MAX + 1];
	int64_t r = execve_args(a[1], buf, argv);
	if (r >= 0)
		r = proc_execve(path, (int)r, argv);         /* returns only on failure */
	return r;
}

int64_t sys_wait4(const uint64_t a[6])
{
	int status = 0;
	int r = proc_wait4((int)a[0], &status, (int)a[2]);

	if (r > 0 && a[1] != 0 && arch_copyout(a[1], &status, sizeof(status)) < 0)
		return -EFAULT;
	return r;
}

int64_t sys_kill(const uint64_t a[6])
{
	if ((int64_t)a[0] <= 0)
		return -ESRCH;                             /* no process groups */
	return proc_kill((int)a[0], (int)a[1]);
}

/* fd_alloc: the lowest free descriptor of p, holding f; or -EMFILE. */
static int fd_alloc(struct proc *p, struct file *f)
{
	for (int fd = 0; fd < PROC_FILES; fd++) {
		if (p->p_files[fd] == NULL) {
			p->p_files[fd] = f;
			return fd;
		}
	}
	return -EMFILE;
}

int64_t sys_pipe(const uint64_t a[6])
{
	struct proc *p = curproc();
	struct file *rd, *wr;
	int r = pipe_create(&rd, &wr);

	if (r < 0)
		return r;
	int fds[2] = { fd_alloc(p, rd), -1 };
	fds[1] = fds[0] >= 0 ? fd_alloc(p, wr) : -EMFILE;
	if (fds[1] >= 0 && arch_copyout(a[0], fds, sizeof(fds)) == 0)
		return 0;
	r = fds[1] < 0 ? -EMFILE : -EFAULT;
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			p->p_files[fds[i]] = NULL;
	file_unref(rd);
	file_unref(wr);
	return r;
}

int64_t sys_dup2(const uint64_t a[6])
{
	struct proc *p = curproc();
	struct file *f = fd_file(a[0]);

	if (f == NULL || a[1] >= PROC_FILES)
		return -EBADF;
	if (a[0] != a[1]) {
		file_unref(p->p_files[a[1]]);
		p->p_files[a[1]] = file_ref(f);
	}
	return (int64_t)a[1];
}

/* --- memory ---------------------------------------------------------------------- */

#define MAP_ANONYMOUS 0x20

/* mmap: anonymous memory, or /dev/zero (the same thing, as on Unix). */
int64_t sys_mmap(const uint64_t a[6])
{
	int flags = (int)a[3];

	if (!(flags & MAP_ANONYMOUS)) {
		struct file *f = fd_file(a[4]);
		if (f == NULL)
			return -EBADF;
		if (!f->f_ops->fo_zero)
			return -ENODEV;
		flags |= MAP_ANONYMOUS;
	}
	return proc_mmap(curproc(), a[0], a[1], (int)a[2], flags);
}

int64_t sys_munmap(const uint64_t a[6])
{
	return proc_munmap(curproc(), a[0], a[1]);
}
