/*
 * proc.h - user processes.
 *
 * A process is a user address space, one thread that runs in it (kernel
 * threads are the scheduler's; a process's thread is one of them with
 * t_proc set), a pid, a parent, open files and, once it is gone, an exit
 * status that its parent collects with proc_wait.  Programs come from the
 * boot archive (/bin/...), static ELF64 executables (kernel/elf.c), built
 * against newlib (userland/libc).  A process never makes the kernel fault:
 * a bad pointer handed to a system call is EFAULT, a fault in user mode
 * kills the process with a signal (SIGSEGV, ...), and every page it held is
 * freed when it exits.  Each has real, effective and saved user and group
 * ids (p_cred, kernel/cred.h): root's when the console starts it, another
 * user's through proc_cred_set while held (the shell's runas), kept by
 * fork and execve.
 *
 * Signal and errno numbers are Linux's, as the system calls are
 * (kernel/syscalls.def).
 */
#ifndef SONDE_PROC_H
#define SONDE_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernel/cred.h"
#include "kernel/file.h"

#define SIGINT   2
#define SIGILL   4
#define SIGTRAP  5
#define SIGBUS   7
#define SIGFPE   8
#define SIGKILL  9
#define SIGSEGV  11
#define SIGPIPE  13
#define SIGTERM  15
#define SIGCONT  18                  /* resumes a stopped process (DTrace's stop()); never terminates */
#define NSIG     65

#define EPERM    1
#define ENOENT   2
#define ESRCH    3
#define EINTR    4
#define EIO      5
#define E2BIG    7
#define ENOEXEC  8
#define EBADF    9
#define ECHILD   10
#define EAGAIN   11
#define ENOMEM   12
#define EFAULT   14
#define ENOTDIR  20
#define EISDIR   21
#define EINVAL   22
#define EMFILE   24
#define ENOTTY   25
#define ESPIPE   29
#define EPIPE    32
#define ERANGE   34
#define ENAMETOOLONG 36
#define ENOSYS   38
#define EACCES   13
#define EROFS    30
#define ENXIO    6
#define ENODEV   19
#define EBUSY    16
#define EEXIST   17
#define EXDEV    18
#define EFBIG    27
#define ENOSPC   28
#define ENOTEMPTY 39
#define WNOHANG  1

#define PROC_MAX        64           /* processes at once, zombies included */
#define PROC_NAME_MAX   32
#define PROC_FILES      16           /* descriptors per process */
#define PROC_ARG_MAX    4096         /* bytes of argv strings */
#define PROC_ARGC_MAX   64
#define PROC_PSARGS_SZ  80           /* the start of the argument list kept for psinfo_t (PRARGSZ) */
#define PROC_STACK_PAGES 32          /* 128 KiB of user stack */
#define PROC_MEM_PAGES  16384        /* 64 MiB: the most brk and mmap may map in one process */

enum proc_state { PS_FREE, PS_ALIVE, PS_ZOMBIE };

struct arch_as;
struct thread;

struct proc {
	int p_pid;
	int p_ppid;
	enum proc_state p_state;
	int p_status;                /* wait status once a zombie: code << 8, or the signal */
	char p_execname[PROC_NAME_MAX];  /* the basename of what it runs */
	struct cred p_cred;          /* its user and group ids (kernel/cred.h); written by itself only */
	struct arch_as *p_as;
	uint64_t p_brk_base;         /* the break starts here (above the last segment) */
	uint64_t p_brk;              /* the current break; pages below it are mapped */
	uint64_t p_tid;              /* its thread */
	struct file *p_files[PROC_FILES];
	bool p_orphan;               /* its parent is gone: nobody waits, its slot is freed at exit */
	uint64_t p_mmap_next;        /* where the next mmap without MAP_FIXED goes */
	uint64_t p_mem_pages;        /* pages brk and mmap mapped (minus what munmap and brk freed) */
	volatile int p_sig_pending;  /* a signal sent to it (kill), acted on at its next return to user mode */
	const struct kfile *p_image; /* the executable it runs (boot archive: lives for ever) */
	uint64_t p_fault_addr;       /* what killed it, for the shell's report */
	uint64_t p_fault_pc;
	char p_fault_sym[64];        /* the pc as function+offset from the image's .symtab, or "" */
	bool p_exiting;              /* proc_exit has begun (the pid provider makes no new probes) */
	volatile bool p_held;        /* proc_spawn_held: not in user mode until proc_release */
	char p_psargs[PROC_PSARGS_SZ];   /* argv joined by spaces, cut at PROC_PSARGS_SZ - 1 (pr_psargs) */
	int p_argc;                  /* its argument count (pr_argc) */
	volatile bool p_stop_pending;    /* DTrace's stop(): stop at the next return to user mode */
	volatile bool p_stopped;     /* stopped there until SIGCONT (or a signal that kills it) */
};

/*
 * proc_spawn: start path (a boot-archive executable) with argc arguments
 * argv as a child of the current process (or of nobody: ppid 0, for the
 * console), fds 0, 1, 2 on the console.  Returns the pid, or a negative
 * errno (-ENOENT, -ENOEXEC with the loader's reason in err, -ENOMEM,
 * -EAGAIN when the process table is full).  It runs as root (cred_root).
 * Thread context.
 */
int proc_spawn(const char *path, int argc, char *const argv[], char *err, size_t errsize);
/*
 * proc_spawn_held: the same, but the process waits before its first
 * instruction (and before proc:::start) until proc_release(pid): dtrace -c
 * creates its command so, to know $target before it compiles and to let it
 * run only once tracing has started.  A held process that is killed dies
 * when released.  Thread context.
 */
int proc_spawn_held(const char *path, int argc, char *const argv[], char *err, size_t errsize);
void proc_release(int pid);
/*
 * proc_file_set: descriptor fd of held process pid becomes a new
 * reference to f (the one it had is dropped): the shell connects a
 * pipeline's stages and redirections so before releasing them.  0,
 * -ESRCH (no such held process), -EBADF.  Thread context.
 */
int proc_file_set(int pid, int fd, struct file *f);

/*
 * proc_cred_set: held process pid's ids become *c (the shell's runas,
 * before it releases the process).  0, or -ESRCH (no such held process).
 * Thread context.
 */
int proc_cred_set(int pid, const struct cred *c);

/*
 * proc_pid_reserve: a pid no process has had or will have, for a thread
 * that D should see as a process of its own (the dtrace command's consumer
 * thread).  Any context but probe context.
 */
int proc_pid_reserve(void);

/*
 * proc_wait: wait until process pid (a child of the caller's process, or
 * any process when the caller is a kernel thread) has exited, free its
 * slot and return its wait status in *status (and its fault in *fault,
 * which may be NULL).  Returns pid, or -ECHILD.  Thread context.
 */
struct proc_fault_info {
	int pf_signal;
	uint64_t pf_addr, pf_pc;
	char pf_sym[64];             /* pf_pc symbolized ("main+0x14"), or "" */
};
int proc_wait(int pid, int *status, struct proc_fault_info *fault);

/*
 * proc_wait4: wait4(2)'s core: wait for the caller's child pid (-1: any
 * child) to exit, unless options has WNOHANG; store its wait status.
 * Returns its pid, 0 (WNOHANG, none exited yet), -ECHILD, or -EINTR if the
 * caller was killed.  Thread context, a process's thread.
 */
int proc_wait4(int pid, int *status, int options);

/*
 * proc_fork: a child of the current process with a copy of its address
 * space, registers (returning 0 from fork), FPU state and descriptors.
 * Returns the child's pid, or -ENOMEM / -EAGAIN.  A process's thread.
 */
int proc_fork(void);

/*
 * proc_execve: replace the current process's program with path, argv
 * being kernel copies.  Returns only on failure (a negative errno, the old
 * program untouched); on success the thread goes to user mode in the new
 * program.  A process's thread.
 */
int proc_execve(const char *path, int argc, char *const argv[]);

/*
 * proc_mmap/proc_munmap: mmap(2) of anonymous memory and munmap(2) for the
 * current process (kernel/proc_exec.c): the address, or a negative errno.
 */
int64_t proc_mmap(struct proc *p, uint64_t addr, uint64_t len, int prot, int flags);
int64_t proc_munmap(struct proc *p, uint64_t addr, uint64_t len);

/* proc_wait_done: has pid exited (or does it not exist)?  proc_wait would not sleep.  Thread context. */
bool proc_wait_done(int pid);

/* proc_exit: the current process ends with wait status status.  Never returns. */
void proc_exit(int status) __attribute__((noreturn));

/*
 * proc_kill: send sig to process pid; every signal's action is to
 * terminate (no handlers yet), taken the next time the process returns to
 * user mode, or at once if it sleeps (its sleeps end early).  sig 0 only
 * checks that pid exists; SIGCONT only resumes a stopped process.  0,
 * -ESRCH, -EINVAL.  Any thread.
 */
int proc_kill(int pid, int sig);
/*
 * proc_raise_self, proc_stop_self: DTrace's raise(sig) and stop() on the
 * current process: sig (if none is pending yet), or a stop, is acted on
 * when it next returns to user mode (proc_user_return).  No locks: probe
 * context.  False for a kernel thread, which takes neither.
 */
bool proc_raise_self(int sig);
bool proc_stop_self(void);
/*
 * proc_user_return: the current thread is about to return to user mode
 * (after a system call, an interrupt or a pid probe's trap): stop if
 * asked (sleeping until SIGCONT or a signal), then act on a pending signal (a
 * thread_kill of the process's thread, the shell's `kill TID`, is SIGKILL).  Called
 * by the machine code with interrupts off; may not return.
 */
void proc_user_return(void);

/* curproc: the current thread's process, or NULL in a kernel thread.  Any context. */
struct proc *curproc(void);

/* proc_detach: nobody will wait for pid (a background job): its slot is freed when it exits.  Thread context. */
bool proc_detach(int pid);

/* proc_list: up to max processes' public state into out, in table order; returns how many there are. */
struct proc_info {
	int pi_pid, pi_ppid;
	uint32_t pi_uid;             /* its real user id (ps's UID) */
	char pi_state;               /* 'R' alive, 'T' stopped, 'Z' zombie */
	uint64_t pi_tid;             /* its thread */
	char pi_execname[PROC_NAME_MAX];
};
int proc_list(struct proc_info *out, int max);

/* proc_count: processes in the table (alive, and zombies not yet waited for).  Thread context. */
int proc_count(int *zombies);

/* proc_signal_name: what a shell says for a death by sig ("Segmentation fault"). */
const char *proc_signal_name(int sig);

/*
 * The proc provider's events (trace/prov_proc.c): while any of its probes
 * is enabled it sets proc_probe_hook, and the process code reports each
 * event through it (a load and a branch when disabled).  Arguments:
 *   PROC_EV_CREATE        the child's struct proc *  (parent's context)
 *   PROC_EV_EXEC          path (kernel string)       (before the exec)
 *   PROC_EV_EXEC_SUCCESS  -                          (the new program, before it runs)
 *   PROC_EV_EXEC_FAILURE  errno
 *   PROC_EV_EXIT          reason: 1 exited, 2 killed (DTrace's CLD_*)
 *   PROC_EV_SIGNAL_SEND   target's struct proc * twice, signal  (sender's context)
 *   PROC_EV_START, PROC_EV_LWP_START   -         (the new process's first run)
 * A struct proc * is a slot of the process table, which is never freed.
 * Thread context.
 */
enum proc_event {
	PROC_EV_CREATE, PROC_EV_EXEC, PROC_EV_EXEC_SUCCESS, PROC_EV_EXEC_FAILURE, PROC_EV_EXIT,
	PROC_EV_SIGNAL_SEND, PROC_EV_START, PROC_EV_LWP_START, PROC_EV_COUNT
};
extern void (*volatile proc_probe_hook)(enum proc_event ev, uint64_t a0, uint64_t a1, uint64_t a2);

/*
 * The pid provider's hooks (trace/prov_pid.c sets them at boot): fork calls
 * proc_pid_fork_hook(parent, child) once the child's address space is a
 * copy and before the child runs (it takes the parent's probe traps out of
 * the copy); exit and a successful exec call proc_pid_gone_hook(p) before
 * p's old address space is freed.  Thread context, p's own thread.
 */
extern void (*volatile proc_pid_fork_hook)(struct proc *parent, struct proc *child);
extern void (*volatile proc_pid_gone_hook)(struct proc *p);

/*
 * proc_lookup: the slot of the live process pid, or NULL.  The slot stays
 * valid memory, but the process may end at any time: the caller
 * synchronises with it (the pid provider through proc_pid_gone_hook).
 * Thread context.
 */
struct proc *proc_lookup(int pid);

/* Wait statuses (as in <sys/wait.h>). */
#define PROC_EXITED(st)    (((st) & 0x7f) == 0)
#define PROC_EXITCODE(st)  (((st) >> 8) & 0xff)
#define PROC_TERMSIG(st)   ((st) & 0x7f)

/*
 * proc_load: the loader (kernel/proc_exec.c): map the executable kf into
 * p's (empty) address space, build the initial stack from argv, and set
 * p's break; the entry point and stack pointer in *pc and *sp.  0, or a
 * negative errno with the reason in err.  Thread context.
 */
struct kfile;
int proc_load(struct proc *p, const struct kfile *kf, int argc, char *const argv[],
              uint64_t *pc, uint64_t *sp, char *err, size_t errsize);

/* proc_brk: move p's break to addr (mapping or unmapping pages); returns the break after. */
uint64_t proc_brk(struct proc *p, uint64_t addr);

#endif
