/*
 * thread.h - kernel threads and the scheduler.
 *
 * Every thread has a kernel stack, an id (tid), a name (DTrace's execname)
 * and a state.  The scheduler is preemptive round robin with a run queue per
 * CPU: a cyclic on each CPU ticks every SCHED_QUANTUM_NS and the running
 * thread yields on the way out of the interrupt; idle CPUs take work from
 * busy ones.  A prompt thread (thread_set_prompt: the dtrace consumer) is
 * woken to the front of its CPU's queue and preempts what runs there.
 */
#ifndef SONDE_THREAD_H
#define SONDE_THREAD_H

#include <stdbool.h>
#include <stdint.h>
#include "kernel/baggage.h"
#include "kernel/klib.h"
#include "kernel/lock.h"
#include "kernel/time.h"

#define THREAD_NAME_MAX  32
#include "arch/arch.h"
#ifdef ARCH_THREAD_STACK_SIZE
#define THREAD_STACK_SIZE ARCH_THREAD_STACK_SIZE   /* a machine with bigger frames (sparc64) */
#else
#define THREAD_STACK_SIZE (16 * 1024)
#endif
#define SCHED_QUANTUM_NS (10 * NSEC_PER_MSEC)

enum thread_state {
	TS_RUNNABLE,                 /* on the run queue */
	TS_RUNNING,
	TS_SLEEPING,
	TS_ZOMBIE,                   /* exited; reaped by the reaper */
};

struct file;

struct thread {
	uint64_t t_rsp;              /* saved stack pointer (switch.asm: offset 0) */
	uint64_t t_tid;
	char t_name[THREAD_NAME_MAX];
	enum thread_state t_state;
	int t_cpu;                   /* CPU it last ran on */
	uint64_t t_cputime;          /* ns spent running */
	uint64_t t_oncpu_at;         /* ktime_ns when it last went on CPU */
	uint64_t t_created;          /* ktime_ns at creation */
	void *t_stack;               /* base of the kernel stack */
	void (*t_fn)(void *);
	void *t_arg;
	volatile bool t_killed;      /* kill requested: the thread should exit */
	bool t_timed_out;            /* set when a timed sleep expired */
	struct thread *t_rq_next;    /* run queue or wait queue link */
	waitq_t *t_waitq;            /* wait queue it sleeps on, if any */
	struct cyclic t_timer;       /* for timed sleeps */
	struct thread *t_all_next;   /* list of all threads */
	waitq_t t_joiners;           /* threads waiting for this one to exit */
	int t_exit_status;
	int t_refs;                  /* joiners holding the zombie */
	int t_bound;                 /* CPU it must run on, or -1 */
	bool t_reap_by_joiner;       /* the last joiner frees it */
	bool t_untraced;             /* its own execution fires no probes (a dtrace consumer) */
	bool t_prompt;               /* woken to the front of its queue, preempting (thread_set_prompt) */
	uint64_t t_pid;              /* D's pid: 0 for kernel threads; a consumer's own (see thread_set_process) */
	uint64_t t_dtrace_vtime;     /* ns of probe processing charged to it (vtimestamp leaves them out) */
	/* A user process's thread (kernel/proc.c); all NULL for a kernel thread. */
	struct proc *t_proc;         /* the process it runs */
	struct arch_as *t_as;        /* the address space loaded when it runs */
	void *t_fpu;                 /* its FPU/SSE registers while off CPU (arch_fpu_alloc) */
	uint32_t t_sysnum;           /* the system call it is in (or was in last) */
	int t_errno;                 /* the last failed system call's errno, for D's errno */
	struct baggage t_bag;        /* causal baggage (kernel/baggage.c): D's bag-> */
	/* Its standard output as a shell command (kernel/kstdio.c); only the thread itself uses it. */
	struct thread_stdio {
		struct file *ts_out;     /* NULL: the console */
		bool ts_broken;          /* a write failed: EPIPE, or ts_err */
		bool ts_busy;            /* inside a write: nested output goes to the console */
		int ts_err;              /* the errno of that write (positive) */
	} t_stdio;
};

void sched_init(void);                            /* boot: make the boot thread current */
void sched_start(void);                           /* boot: start the tick; never returns */
void sched_start_ap(void) __attribute__((noreturn)); /* an AP becomes its CPU's idle thread */

/*
 * thread_create: a new runnable thread running fn(arg); returns it, or NULL
 * when memory is short.  Thread context.
 */
struct thread *thread_create(const char *name, void (*fn)(void *), void *arg);
/*
 * thread_spawn: thread_create for callers that keep only the tid (a thread
 * may run, exit and be freed before thread_create's caller looks at it).
 * Returns the tid, 0 when memory is short.  Thread context.
 */
uint64_t thread_spawn(const char *name, void (*fn)(void *), void *arg);

/*
 * thread_bind: the current thread runs only on CPU cpu from now on (-1:
 * anywhere).  The console's thread stays on CPU 0, so what dtrace prints in
 * its CPU column for BEGIN and END does not depend on scheduling.
 */
void thread_bind(int cpu);
void thread_exit(int status) __attribute__((noreturn));
/*
 * thread_set_untraced: from now on probes do not fire in the current
 * thread's own execution (interrupts taken while it runs still fire them);
 * the dtrace consumer sets it, being what a user process is to DTrace.  Not
 * inherited by the threads it creates.  Thread context.
 */
void thread_set_untraced(bool on);
/*
 * thread_set_prompt: from now on, whenever the current thread wakes (a
 * sleep ends, a wait queue wakes it), it goes to the front of its CPU's run
 * queue and that CPU switches to it at once instead of after every runnable
 * thread's quantum.  A thread that uses up its quantum still goes to the
 * back like any other, so a prompt thread that mostly sleeps (the dtrace
 * consumer, polling every 10 ms) runs within microseconds of its wake-up
 * under any load, and one that computes shares the CPU as before.  Not
 * inherited.  Thread context.
 */
void thread_set_prompt(bool on);
/*
 * thread_set_process: the current thread now stands for a process called
 * name with process id pid (D's execname and pid), until called again.
 * Until Sonde has user processes, the dtrace command runs as the "dtrace"
 * process this way, so BEGIN and END fire in its context as they do in
 * DTrace.  Thread context.
 */
void thread_set_process(const char *name, uint64_t pid);
struct thread *curthread(void);                   /* any context */
void thread_stopped_each(void (*fn)(const struct thread *t, bool running, void *arg), void *arg);
void thread_yield(void);                          /* thread context */
void thread_sleep_ns(uint64_t ns);                /* thread context; returns early if killed */

/* thread_kill: ask thread tid to exit (it sees thread_should_exit()).  Returns false if no such thread. */
bool thread_kill(uint64_t tid);
bool thread_should_exit(void);                    /* the current thread was killed */

/*
 * thread_join: wait until tid exits, returning its status, or -1 if there is
 * no such thread.  A thread that already exited returns its status at once
 * if it was one of the last 64 to exit.
 */
int thread_join(uint64_t tid);

/* A copy of a thread's public state, for ps. */
struct thread_info {
	uint64_t ti_tid;
	char ti_name[THREAD_NAME_MAX];
	enum thread_state ti_state;
	int ti_cpu;
	uint64_t ti_cputime;
};

/*
 * thread_list: copy up to max threads' info into out (in tid order);
 * returns the number of threads.  Thread context.
 */
int thread_list(struct thread_info *out, int max);
const char *thread_state_name(enum thread_state s);

/* Called from the timer interrupt path; preempts if the quantum expired. */
void sched_preempt_check(void);

#endif
