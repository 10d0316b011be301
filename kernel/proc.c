/*
 * proc.c - the process table: creating, ending and waiting for processes.
 *
 * A fixed table of PROC_MAX slots, guarded by proc_lock (a spinlock: the
 * state of a slot changes in the dying thread with interrupts off).  A
 * slot is FREE, ALIVE (its thread runs) or a ZOMBIE (its thread has gone,
 * its wait status is kept until proc_wait collects it).
 *
 * Life of a process: proc_spawn makes the slot, the address space (loaded
 * by proc_load, kernel/proc_exec.c, from the caller's thread) and the FPU
 * area, then a thread that enters user mode (proc_thread_main).  It ends
 * in proc_exit, from the exit system calls or proc_fault: the thread
 * leaves the address space, frees it (every page the process held), closes
 * its files, becomes a zombie and wakes the waiters, then exits as a
 * thread.  Order below: the table, creation, the end, waiting, names.
 *
 * Tests: tests/e2e/test_proc.py, tests/e2e/test_mem.py; tests/d/proc
 */
#include "arch/arch.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/elf.h"
#include "kernel/kfile.h"
#include "kernel/klib.h"
#include "kernel/lock.h"
#include "kernel/mem.h"
#include "kernel/proc.h"
#include "kernel/thread.h"
#include "kernel/time.h"

static struct proc procs[PROC_MAX];
static spinlock_t proc_lock = SPINLOCK_INIT("proc");
static waitq_t proc_exit_wq = WAITQ_INIT;       /* woken whenever a process becomes a zombie */
static int proc_next_pid = 1;

void (*volatile proc_probe_hook)(enum proc_event ev, uint64_t a0, uint64_t a1, uint64_t a2);
void (*volatile proc_pid_fork_hook)(struct proc *parent, struct proc *child);
void (*volatile proc_pid_gone_hook)(struct proc *p);

/* proc_pid_gone: tell the pid provider that p's address space is about to go. */
static void proc_pid_gone(struct proc *p)
{
	void (*hook)(struct proc *) = proc_pid_gone_hook;

	if (hook != NULL)
		hook(p);
}

/*
 * proc_event: report ev to the proc provider if it listens.  Always inlined,
 * so that stack() starts at the process code that saw the event.
 */
static inline __attribute__((always_inline)) void proc_event(enum proc_event ev, uint64_t a0, uint64_t a1, uint64_t a2)
{
	void (*hook)(enum proc_event, uint64_t, uint64_t, uint64_t) = proc_probe_hook;

	if (hook != NULL)
		hook(ev, a0, a1, a2);
}

struct proc *curproc(void)
{
	return curthread()->t_proc;
}

/* proc_alloc: a fresh ALIVE slot with the next pid, or NULL if the table is full. */
static struct proc *proc_alloc(void)
{
	struct proc *p = NULL;

	spin_lock(&proc_lock);
	for (int i = 0; i < PROC_MAX && p == NULL; i++) {
		if (procs[i].p_state == PS_FREE)
			p = &procs[i];
	}
	if (p != NULL) {
		memset(p, 0, sizeof(*p));
		p->p_state = PS_ALIVE;
		p->p_pid = proc_next_pid++;
	}
	spin_unlock(&proc_lock);
	if (p == NULL)
		SYSINFO_ADD(procovf, 1);                /* the table is full: no new process */
	return p;
}

static void proc_free_slot(struct proc *p)
{
	spin_lock(&proc_lock);
	p->p_state = PS_FREE;
	spin_unlock(&proc_lock);
}

static void proc_files_close(struct proc *p)
{
	for (int fd = 0; fd < PROC_FILES; fd++) {
		file_unref(p->p_files[fd]);
		p->p_files[fd] = NULL;
	}
}

/* --- creation -------------------------------------------------------------- */

/* What a new process's thread needs to start: a program's entry, or (fork) a copy of registers. */
struct proc_start {
	struct proc *ps_proc;
	uint64_t ps_pc, ps_sp;
	void *ps_fpu;
	void *ps_frame;              /* fork: the parent's user registers (arch_user_frame_copy) */
};

/* proc_thread_main: the process's thread, first run: become the process, enter user mode. */
static void proc_thread_main(void *arg)
{
	struct proc_start *ps = arg;
	struct thread *t = curthread();
	uint64_t pc = ps->ps_pc, sp = ps->ps_sp;
	void *frame = ps->ps_frame;

	while (ps->ps_proc->p_held)             /* proc_spawn_held: until proc_release */
		thread_sleep_ns(NSEC_PER_MSEC);
	t->t_proc = ps->ps_proc;                /* pid and execname are the process's from here */
	proc_event(PROC_EV_START, 0, 0, 0);
	proc_event(PROC_EV_LWP_START, 0, 0, 0);
	if (frame == NULL)
		proc_event(PROC_EV_EXEC_SUCCESS, 0, 0, 0);
	/* With t_fpu set, a switch would save the CPU's registers over it: interrupts off until user mode. */
	arch_irq_disable();
	t->t_fpu = ps->ps_fpu;
	t->t_as = ps->ps_proc->p_as;
	kfree(ps);
	if (frame != NULL)
		arch_user_resume(frame, 0);         /* fork's child: 0 from fork */
	arch_user_enter(pc, sp);
}

/* proc_start_thread: the thread of p (set up), from ps; 0, or -ENOMEM with nothing freed. */
static int proc_start_thread(struct proc *p, struct proc_start *ps)
{
	ps->ps_proc = p;
	p->p_tid = thread_spawn(p->p_execname, proc_thread_main, ps);
	return p->p_tid != 0 ? 0 : -ENOMEM;
}

static const char *path_basename(const char *path)
{
	const char *slash = strchr(path, '/'), *base = path;

	for (; slash != NULL; slash = strchr(slash + 1, '/'))
		base = slash + 1;
	return base;
}

/* proc_setup: p's address space, program and files; 0 or a negative errno. */
static int proc_setup(struct proc *p, const char *path, int argc, char *const argv[],
                      struct proc_start *ps, char *err, size_t errsize)
{
	const struct kfile *kf = kfile_lookup(path);

	if (kf == NULL)
		return -ENOENT;
	if ((p->p_as = arch_as_create()) == NULL)
		return -ENOMEM;
	int r = proc_load(p, kf, argc, argv, &ps->ps_pc, &ps->ps_sp, err, errsize);
	if (r < 0)
		return r;
	kstrlcpy(p->p_execname, path_basename(path), sizeof(p->p_execname));
	struct proc *parent = curproc();
	p->p_ppid = parent != NULL ? parent->p_pid : 0;
	p->p_files[0] = file_console();
	p->p_files[1] = file_console();
	p->p_files[2] = file_console_err();
	return 0;
}

static int proc_spawn_how(const char *path, int argc, char *const argv[], char *err,
                          size_t errsize, bool held);

/*
 * proc_launch: spawn's and fork's last step.  If r is 0 (p and ps set up),
 * start p's thread and return its pid; otherwise, or if the thread cannot
 * start, undo what was set up (p and ps may be NULL) and return the error.
 */
static int proc_launch(struct proc *p, struct proc_start *ps, int r)
{
	if (r == 0) {
		int pid = p->p_pid;
		if ((r = proc_start_thread(p, ps)) == 0) {
			proc_event(PROC_EV_CREATE, (uint64_t)(uintptr_t)p, 0, 0);
			return pid;
		}
	}
	if (p != NULL) {
		arch_as_destroy(p->p_as);
		proc_files_close(p);
		proc_free_slot(p);
	}
	if (ps != NULL) {
		arch_fpu_free(ps->ps_fpu);
		kfree(ps->ps_frame);
	}
	kfree(ps);
	return r;
}

int proc_spawn(const char *path, int argc, char *const argv[], char *err, size_t errsize)
{
	return proc_spawn_how(path, argc, argv, err, errsize, false);
}

int proc_spawn_held(const char *path, int argc, char *const argv[], char *err, size_t errsize)
{
	return proc_spawn_how(path, argc, argv, err, errsize, true);
}

void proc_release(int pid)
{
	spin_lock(&proc_lock);
	for (int i = 0; i < PROC_MAX; i++)
		if (procs[i].p_state != PS_FREE && procs[i].p_pid == pid)
			procs[i].p_held = false;
	spin_unlock(&proc_lock);
}

int proc_pid_reserve(void)
{
	spin_lock(&proc_lock);
	int pid = proc_next_pid++;
	spin_unlock(&proc_lock);
	return pid;
}

static int proc_spawn_how(const char *path, int argc, char *const argv[], char *err,
                          size_t errsize, bool held)
{
	struct proc_start *ps = kzalloc(sizeof(*ps));
	struct proc *p = ps != NULL ? proc_alloc() : NULL;
	int r = ps == NULL ? -ENOMEM : p == NULL ? -EAGAIN : 0;

	if (err != NULL && errsize > 0)
		err[0] = 0;
	if (r == 0)
		r = proc_setup(p, path, argc, argv, ps, err, errsize);
	if (r == 0 && (ps->ps_fpu = arch_fpu_alloc()) == NULL)
		r = -ENOMEM;
	if (r == 0) {
		p->p_held = held;
		p->p_cred = cred_root();                /* the console's programs run as root */
	}
	return proc_launch(p, ps, r);
}

int proc_fork(void)
{
	struct proc *parent = curproc();
	struct proc_start *ps = kzalloc(sizeof(*ps));
	struct proc *p = ps != NULL ? proc_alloc() : NULL;
	int r = ps == NULL ? -ENOMEM : p == NULL ? -EAGAIN : 0;

	if (r == 0) {
		ps->ps_frame = arch_user_frame_copy();
		ps->ps_fpu = arch_fpu_copy();
		p->p_as = arch_as_copy(parent->p_as);
		if (ps->ps_frame == NULL || ps->ps_fpu == NULL || p->p_as == NULL)
			r = -ENOMEM;
	}
	if (r == 0) {
		memcpy(p->p_execname, parent->p_execname, sizeof(p->p_execname));
		memcpy(p->p_psargs, parent->p_psargs, sizeof(p->p_psargs));
		p->p_argc = parent->p_argc;
		p->p_cred = parent->p_cred;            /* exec keeps them too */
		p->p_ppid = parent->p_pid;
		p->p_brk_base = parent->p_brk_base;
		p->p_brk = parent->p_brk;
		p->p_mmap_next = parent->p_mmap_next;
		p->p_mem_pages = parent->p_mem_pages;
		for (int fd = 0; fd < PROC_FILES; fd++)
			p->p_files[fd] = parent->p_files[fd] ? file_ref(parent->p_files[fd]) : NULL;
		p->p_image = parent->p_image;
		void (*hook)(struct proc *, struct proc *) = proc_pid_fork_hook;
		if (hook != NULL)
			hook(parent, p);                /* the child runs without the parent's pid probes */
	}
	return proc_launch(p, ps, r);
}

int proc_execve(const char *path, int argc, char *const argv[])
{
	struct thread *t = curthread();
	struct proc *p = t->t_proc;
	const struct kfile *kf = kfile_lookup(path);
	struct arch_as *old = p->p_as;
	uint64_t old_brk_base = p->p_brk_base, old_brk = p->p_brk, pc, sp;
	char why[160];
	int r = kf == NULL ? -ENOENT : 0;

	proc_event(PROC_EV_EXEC, (uint64_t)path, 0, 0);
	if (r == 0 && (p->p_as = arch_as_create()) == NULL)
		r = -ENOMEM;
	if (r == 0 && (r = proc_load(p, kf, argc, argv, &pc, &sp, why, sizeof(why))) < 0) {
		proc_pid_gone(p);                   /* a pid probe made meanwhile may name the new space */
		arch_as_destroy(p->p_as);
	}
	if (r < 0) {
		p->p_as = old;
		p->p_brk_base = old_brk_base;
		p->p_brk = old_brk;
		proc_event(PROC_EV_EXEC_FAILURE, (uint64_t)-r, 0, 0);
		return r;
	}
	arch_irq_disable();
	t->t_as = p->p_as;
	arch_as_activate(p->p_as);
	arch_irq_enable();
	proc_pid_gone(p);
	arch_as_destroy(old);
	p->p_mmap_next = 0;
	p->p_mem_pages = 0;
	kstrlcpy(p->p_execname, path_basename(path), sizeof(p->p_execname));
	kstrlcpy(t->t_name, p->p_execname, sizeof(t->t_name));
	proc_event(PROC_EV_EXEC_SUCCESS, 0, 0, 0);
	arch_irq_disable();                     /* no switch may save the old registers over the reset */
	arch_fpu_reset(t->t_fpu);
	arch_user_enter(pc, sp);
}

/* --- the end ----------------------------------------------------------------- */

/* proc_orphan_children: p's children lose their parent: zombies go, the living are freed at exit.  proc_lock held. */
static void proc_orphan_children(struct proc *p)
{
	for (int i = 0; i < PROC_MAX; i++) {
		struct proc *c = &procs[i];
		if (c->p_state == PS_FREE || c->p_ppid != p->p_pid || c->p_orphan)
			continue;
		if (c->p_state == PS_ZOMBIE)
			c->p_state = PS_FREE;
		else
			c->p_orphan = true;
	}
}

void proc_exit(int status)
{
	struct thread *t = curthread();
	struct proc *p = t->t_proc;
	struct arch_as *as = p->p_as;

	proc_event(PROC_EV_EXIT, PROC_EXITED(status) ? 1 : 2, 0, 0);
	p->p_exiting = true;
	proc_pid_gone(p);
	arch_irq_disable();
	t->t_as = NULL;
	arch_as_activate(NULL);
	arch_irq_enable();
	arch_as_destroy(as);
	proc_files_close(p);
	spin_lock(&proc_lock);
	proc_orphan_children(p);
	p->p_as = NULL;
	p->p_status = status;
	p->p_state = p->p_orphan ? PS_FREE : PS_ZOMBIE;
	t->t_proc = NULL;
	waitq_wake_all(&proc_exit_wq);
	spin_unlock(&proc_lock);
	thread_exit(0);
}

void proc_fault(int sig, uint64_t addr, uint64_t pc)
{
	struct proc *p = curproc();

	p->p_fault_addr = addr;
	p->p_fault_pc = pc;
	p->p_fault_sym[0] = 0;
	if (p->p_image != NULL)
		elf_symbolize(p->p_image->kf_data, p->p_image->kf_size, pc, p->p_fault_sym,
		              sizeof(p->p_fault_sym));
	proc_exit(sig & 0x7f);
}

struct proc *proc_lookup(int pid)
{
	struct proc *p = NULL;

	spin_lock(&proc_lock);
	for (int i = 0; i < PROC_MAX && p == NULL; i++)
		if (procs[i].p_state == PS_ALIVE && procs[i].p_pid == pid)
			p = &procs[i];
	spin_unlock(&proc_lock);
	return p;
}

int proc_kill(int pid, int sig)
{
	struct proc *p = NULL;

	if (sig < 0 || sig >= NSIG)
		return -EINVAL;
	spin_lock(&proc_lock);
	for (int i = 0; i < PROC_MAX && p == NULL; i++)
		if (procs[i].p_state == PS_ALIVE && procs[i].p_pid == pid)
			p = &procs[i];
	uint64_t tid = p != NULL ? p->p_tid : 0;
	bool resume = sig == SIGCONT;           /* continues a stopped process, else nothing */
	if (p != NULL && resume)
		p->p_stopped = false;
	else if (p != NULL && sig != 0 && p->p_sig_pending == 0)
		p->p_sig_pending = sig;
	spin_unlock(&proc_lock);
	if (p == NULL)
		return -ESRCH;
	if (sig != 0)
		proc_event(PROC_EV_SIGNAL_SEND, (uint64_t)(uintptr_t)p, (uint64_t)(uintptr_t)p,
		           (uint64_t)sig);
	if (sig != 0 && !resume && tid != 0)
		thread_kill(tid);                   /* ends its sleeps early */
	return 0;
}

NOTRACE bool proc_raise_self(int sig)
{
	struct proc *p = curproc();
	int none = 0;

	if (p == NULL)
		return false;
	__atomic_compare_exchange_n(&p->p_sig_pending, &none, sig, false, __ATOMIC_SEQ_CST,
	                            __ATOMIC_SEQ_CST);   /* the first signal sent wins, as in proc_kill */
	return true;
}

NOTRACE bool proc_stop_self(void)
{
	struct proc *p = curproc();

	if (p == NULL)
		return false;
	p->p_stop_pending = true;
	return true;
}

/*
 * proc_stop_wait: stopped (stop()): sleep until SIGCONT, a signal, or a
 * kill of the thread.  A killing signal ends the sleep at once (thread_kill);
 * SIGCONT only clears p_stopped, seen within PROC_STOP_POLL.
 */
#define PROC_STOP_POLL (10 * NSEC_PER_MSEC)
static void proc_stop_wait(struct proc *p)
{
	p->p_stop_pending = false;
	p->p_stopped = true;
	arch_irq_enable();
	while (p->p_stopped && p->p_sig_pending == 0 && !thread_should_exit())
		thread_sleep_ns(PROC_STOP_POLL);
	p->p_stopped = false;
	arch_irq_disable();
}

void proc_user_return(void)
{
	struct proc *p = curproc();

	if (p != NULL && p->p_stop_pending)
		proc_stop_wait(p);
	if (p == NULL || (p->p_sig_pending == 0 && !thread_should_exit()))
		return;
	int sig = p->p_sig_pending != 0 ? p->p_sig_pending : SIGKILL;   /* thread_kill: `kill TID` */
	arch_irq_enable();
	proc_exit(sig & 0x7f);
}

/* --- waiting ------------------------------------------------------------------ */

/* proc_find: the slot of pid, if the caller may wait for it (proc_lock held). */
static struct proc *proc_find_child(int pid)
{
	struct proc *self = curproc();

	for (int i = 0; i < PROC_MAX; i++) {
		struct proc *p = &procs[i];
		if (p->p_state != PS_FREE && p->p_pid == pid &&
		    (self == NULL || p->p_ppid == self->p_pid))
			return p;
	}
	return NULL;
}

/* proc_wait_match: may the current process collect p as wait4(pid, ...)?  proc_lock held. */
static bool proc_wait_match(const struct proc *p, const struct proc *self, int pid)
{
	return p->p_state != PS_FREE && !p->p_orphan && p->p_ppid == self->p_pid &&
	       (pid == -1 || p->p_pid == pid);
}

int proc_wait4(int pid, int *status, int options)
{
	struct proc *self = curproc();

	if (pid == 0 || pid < -1)
		return -EINVAL;                     /* no process groups */
	spin_lock(&proc_lock);
	for (;;) {
		struct proc *zombie = NULL;
		bool any = false;
		for (int i = 0; i < PROC_MAX; i++) {
			if (!proc_wait_match(&procs[i], self, pid))
				continue;
			any = true;
			if (procs[i].p_state == PS_ZOMBIE && zombie == NULL)
				zombie = &procs[i];
		}
		const int sleep = -1000;            /* not a pid nor an errno */
		int r = zombie != NULL ? zombie->p_pid : !any ? -ECHILD :
		        (options & WNOHANG) ? 0 : thread_should_exit() ? -EINTR : sleep;
		if (r != sleep) {
			if (zombie != NULL) {
				*status = zombie->p_status;
				zombie->p_state = PS_FREE;
			}
			spin_unlock(&proc_lock);
			return r;
		}
		waitq_sleep(&proc_exit_wq, &proc_lock);
	}
}

bool proc_wait_done(int pid)
{
	spin_lock(&proc_lock);
	struct proc *p = proc_find_child(pid);
	bool done = p == NULL || p->p_state == PS_ZOMBIE;
	spin_unlock(&proc_lock);
	return done;
}

int proc_wait(int pid, int *status, struct proc_fault_info *fault)
{
	struct proc *p;

	spin_lock(&proc_lock);
	while ((p = proc_find_child(pid)) != NULL && p->p_state != PS_ZOMBIE)
		waitq_sleep(&proc_exit_wq, &proc_lock);
	if (p == NULL) {
		spin_unlock(&proc_lock);
		return -ECHILD;
	}
	*status = p->p_status;
	if (fault != NULL) {
		*fault = (struct proc_fault_info){ PROC_EXITED(p->p_status) ? 0 : PROC_TERMSIG(p->p_status),
		                                   p->p_fault_addr, p->p_fault_pc, "" };
		memcpy(fault->pf_sym, p->p_fault_sym, sizeof(fault->pf_sym));
	}
	p->p_state = PS_FREE;
	spin_unlock(&proc_lock);
	return pid;
}

bool proc_detach(int pid)
{
	bool found = false;

	spin_lock(&proc_lock);
	for (int i = 0; i < PROC_MAX; i++) {
		struct proc *p = &procs[i];
		if (p->p_state == PS_FREE || p->p_pid != pid)
			continue;
		found = true;
		if (p->p_state == PS_ZOMBIE)
			p->p_state = PS_FREE;
		else
			p->p_orphan = true;
	}
	spin_unlock(&proc_lock);
	return found;
}

int proc_list(struct proc_info *out, int max)
{
	int n = 0;

	spin_lock(&proc_lock);
	for (int i = 0; i < PROC_MAX; i++) {
		const struct proc *p = &procs[i];
		if (p->p_state == PS_FREE)
			continue;
		if (n < max)
			out[n] = (struct proc_info){ p->p_pid, p->p_ppid, p->p_cred.cr_ruid,
			                             p->p_state == PS_ZOMBIE ? 'Z' :
			                             p->p_stopped ? 'T' : 'R',
			                             p->p_tid, "" };
		if (n < max)
			memcpy(out[n].pi_execname, p->p_execname, sizeof(out[n].pi_execname));
		n++;
	}
	spin_unlock(&proc_lock);
	return n;
}

int proc_count(int *zombies)
{
	int n = 0, z = 0;

	spin_lock(&proc_lock);
	for (int i = 0; i < PROC_MAX; i++) {
		n += procs[i].p_state != PS_FREE;
		z += procs[i].p_state == PS_ZOMBIE;
	}
	spin_unlock(&proc_lock);
	*zombies = z;
	return n;
}

/* --- names ------------------------------------------------------------------------ */

const char *proc_signal_name(int sig)
{
	switch (sig) {
	case SIGINT:  return "Interrupt";
	case SIGILL:  return "Illegal instruction";
	case SIGTRAP: return "Trace/breakpoint trap";
	case SIGBUS:  return "Bus error";
	case SIGFPE:  return "Floating point exception";
	case SIGKILL: return "Killed";
	case SIGSEGV: return "Segmentation fault";
	case SIGPIPE: return "Broken pipe";
	case SIGTERM: return "Terminated";
	default:      return "Unknown signal";
	}
}

/* --- a held process's ids and standard files (runas, the shell's pipes and redirections) */

int proc_cred_set(int pid, const struct cred *c)
{
	int r = -ESRCH;

	spin_lock(&proc_lock);
	for (int i = 0; i < PROC_MAX; i++) {
		if (procs[i].p_state == PS_ALIVE && procs[i].p_pid == pid && procs[i].p_held) {
			procs[i].p_cred = *c;
			r = 0;
		}
	}
	spin_unlock(&proc_lock);
	return r;
}

int proc_file_set(int pid, int fd, struct file *f)
{
	struct file *old = NULL;
	int r = -ESRCH;

	if (fd < 0 || fd >= PROC_FILES)
		return -EBADF;
	spin_lock(&proc_lock);
	for (int i = 0; i < PROC_MAX; i++) {
		if (procs[i].p_state == PS_ALIVE && procs[i].p_pid == pid && procs[i].p_held) {
			old = procs[i].p_files[fd];
			procs[i].p_files[fd] = file_ref(f);
			r = 0;
		}
	}
	spin_unlock(&proc_lock);
	file_unref(old);
	return r;
}
