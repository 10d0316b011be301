/*
 * thread.c - kernel threads, the scheduler and wait queues.
 *
 * Round robin with a run queue per CPU.  A thread runs until it sleeps,
 * yields, exits, or its quantum ends: each CPU's scheduler cyclic sets
 * cpu_need_resched every SCHED_QUANTUM_NS and the interrupt path yields on
 * its way out.  New and woken threads go to the CPU they last ran on unless
 * it is busy and another CPU is idle; an idle CPU with nothing of its own
 * takes a waiting thread from the busiest queue (migration).  Each CPU's
 * idle thread (the boot thread on the BSP) halts when nothing is runnable.
 * Plain round robin makes a woken thread wait behind every runnable one, a
 * quantum each: with forty busy processes a thread that sleeps 10 ms between
 * looks runs once in 400 ms or more.  A prompt thread (the dtrace consumer,
 * which must notice exit() and Ctrl-C and end within a fraction of a second
 * whatever runs) is therefore woken to the front of its CPU's queue, and the
 * CPU is told to switch now (need_resched, or an IPI for another CPU); its
 * quantum's end still sends it to the back, so it cannot hog a CPU.
 *
 * Locking: one spinlock, sched_lock, guards every run queue, every wait
 * queue's list, every thread's state and the list of all threads.  It is
 * held across a context switch and released by the thread that runs next
 * (sched_finish), so a thread put back on a queue cannot be picked by
 * another CPU before its registers are saved.  A caller's own spinlock
 * (the condition lock passed to waitq_sleep) is always taken before it.
 * An exited thread (zombie) is freed by the next thread to run on its CPU,
 * since nobody can free the stack they stand on, unless joiners still hold
 * a reference, in which case the last joiner frees it.
 *
 * Order below: queues, placement, switching, creation and exit, sleeping,
 * wait queues, kill and join, listing.
 *
 * Tests: self-tests thread_join_status, thread_kill_wakes_sleeper,
 *        smp_threads_spread, sched_prompt_wakes_first; tests/e2e/test_workloads.py,
 *        tests/e2e/test_dtrace_stop.py
 */
#include "arch/arch.h"
#include "kernel/baggage_site.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/sdt.h"
#include "kernel/thread.h"

static struct thread boot_thread;
static struct thread *all_threads, *all_tail;
static uint64_t next_tid = 1;
static struct cyclic sched_tick[MAX_CPUS];
static spinlock_t sched_lock = SPINLOCK_INIT("sched");

/* The last exits, so a join that comes after the thread was freed still gets its status. */
#define RECENT_EXITS 64
static struct { uint64_t re_tid; int re_status; } recent[RECENT_EXITS];
static unsigned recent_next;

extern char boot_stack[], boot_stack_top[];

#define SCHED_LOCK()   spin_acquire_raw(&sched_lock)     /* interrupts already off */
#define SCHED_UNLOCK() spin_release_raw(&sched_lock)

/* curthread: the machine reads it in one step (arch_curthread: preemption cannot split it). */
struct thread *curthread(void)
{
	return arch_curthread();
}

/* ---- queues (sched_lock) ---- */

static void tq_push(struct thread **head, struct thread **tail, struct thread *t)
{
	t->t_rq_next = NULL;
	if (*tail != NULL)
		(*tail)->t_rq_next = t;
	else
		*head = t;
	*tail = t;
}

static struct thread *tq_pop(struct thread **head, struct thread **tail)
{
	struct thread *t = *head;

	if (t != NULL) {
		*head = t->t_rq_next;
		if (*head == NULL)
			*tail = NULL;
		t->t_rq_next = NULL;
	}
	return t;
}

static void tq_remove(struct thread **head, struct thread **tail, struct thread *t)
{
	struct thread *prev = NULL;

	for (struct thread *p = *head; p != NULL; prev = p, p = p->t_rq_next) {
		if (p != t)
			continue;
		if (prev != NULL)
			prev->t_rq_next = p->t_rq_next;
		else
			*head = p->t_rq_next;
		if (*tail == p)
			*tail = prev;
		p->t_rq_next = NULL;
		return;
	}
}

static void rq_push(struct cpu *c, struct thread *t)
{
	tq_push(&c->cpu_rq_head, &c->cpu_rq_tail, t);
	c->cpu_rq_len++;
}

/* rq_push_front: a prompt thread, woken: next to run on c. */
static void rq_push_front(struct cpu *c, struct thread *t)
{
	t->t_rq_next = c->cpu_rq_head;
	c->cpu_rq_head = t;
	if (c->cpu_rq_tail == NULL)
		c->cpu_rq_tail = t;
	c->cpu_rq_len++;
}

static struct thread *rq_pop(struct cpu *c)
{
	struct thread *t = tq_pop(&c->cpu_rq_head, &c->cpu_rq_tail);

	if (t != NULL)
		c->cpu_rq_len--;
	return t;
}

/* ---- placement (sched_lock) ---- */

static bool cpu_idle_now(const struct cpu *c)
{
	return c->cpu_online && c->cpu_thread == c->cpu_idle && c->cpu_rq_len == 0;
}

/* place: the CPU for a thread that becomes runnable: its own, unless busy while another idles. */
static struct cpu *place(struct thread *t)
{
	struct cpu *home = &cpus[t->t_cpu];

	if (t->t_bound >= 0)
		return &cpus[t->t_bound];
	if (!home->cpu_online || !cpu_idle_now(home))
		for (int i = 0; i < ncpus; i++)
			if (cpu_idle_now(&cpus[i]))
				return &cpus[i];
	return home->cpu_online ? home : &cpus[0];
}

static void make_runnable(struct thread *t)
{
	struct cpu *c = place(t);

	t->t_state = TS_RUNNABLE;
	t->t_waitq = NULL;
	t->t_cpu = c->cpu_id;
	DTRACE_PROBE1(enqueue, t);
	if (t->t_prompt)
		rq_push_front(c, t);
	else
		rq_push(c, t);
	if (c->cpu_thread == c->cpu_idle || t->t_prompt) {
		c->cpu_need_resched = true;         /* a prompt thread preempts */
		if (c != curcpu())
			arch_send_ipi(c->cpu_id, IPI_RESCHED);
	}
}

/* steal: a waiting thread that may move, from the busiest other CPU, now ours. */
static struct thread *steal(struct cpu *self)
{
	struct cpu *busiest = NULL;

	for (int i = 0; i < ncpus; i++)
		if (&cpus[i] != self && cpus[i].cpu_rq_len > 0 &&
		    (busiest == NULL || cpus[i].cpu_rq_len > busiest->cpu_rq_len))
			busiest = &cpus[i];
	if (busiest == NULL)
		return NULL;
	for (struct thread *t = busiest->cpu_rq_head; t != NULL; t = t->t_rq_next) {
		if (t->t_bound < 0) {
			tq_remove(&busiest->cpu_rq_head, &busiest->cpu_rq_tail, t);
			busiest->cpu_rq_len--;
			return t;
		}
	}
	return NULL;
}

void thread_bind(int cpu)
{
	uint64_t flags = arch_irq_save();

	curthread()->t_bound = cpu >= 0 && cpu < ncpus ? cpu : -1;
	arch_irq_restore(flags);
	if (cpu >= 0 && arch_cpu_id() != cpu)
		thread_yield();                     /* make_runnable puts it on its CPU */
}

/* ---- switching (interrupts off, sched_lock held) ---- */

static void recent_exit(const struct thread *t)
{
	recent[recent_next % RECENT_EXITS].re_tid = t->t_tid;
	recent[recent_next % RECENT_EXITS].re_status = t->t_exit_status;
	recent_next++;
}

static bool recent_status(uint64_t tid, int *status)
{
	for (unsigned i = 0; i < RECENT_EXITS; i++) {
		if (recent[i].re_tid == tid && tid != 0) {
			*status = recent[i].re_status;
			return true;
		}
	}
	return false;
}

static void thread_unlist(struct thread *t)
{
	struct thread **pp = &all_threads, *prev = NULL;

	for (; *pp != NULL; prev = *pp, pp = &(*pp)->t_all_next) {
		if (*pp == t) {
			*pp = t->t_all_next;
			if (all_tail == t)
				all_tail = prev;
			break;
		}
	}
}

static void thread_free(struct thread *t)
{
	arch_fpu_free(t->t_fpu);
	kfree(t->t_stack);
	kfree(t);
}

/*
 * zombie_free: free a zombie that switched to us.  Reaping it is the
 * scheduler's work for the dead thread, not ours: a dtrace consumer (an
 * untraced thread) that happens to run next must not hide its probes (the
 * kmem-free of the dead thread's stack), so it is traced for the length of
 * the free.
 */
static void zombie_free(struct thread *z)
{
	struct thread *self = curthread();
	bool untraced = self->t_untraced;

	self->t_untraced = false;
	thread_free(z);
	self->t_untraced = untraced;
}

/*
 * sched_finish: the first thing a thread does after being switched to:
 * release sched_lock (taken by whoever switched away) and free the zombie
 * that switched to us, if nobody waits for it.
 */
static void sched_finish(void)
{
	struct cpu *c = curcpu();
	struct thread *z = c->cpu_to_reap;
	bool free_it = false;

	c->cpu_to_reap = NULL;
	if (z != NULL) {
		if (z->t_refs == 0) {
			thread_unlist(z);
			free_it = true;
		} else {
			z->t_reap_by_joiner = true;
		}
	}
	SCHED_UNLOCK();
	if (free_it)
		zombie_free(z);
}

/*
 * sched_switch: run the next runnable thread; the caller holds sched_lock
 * and has already queued, parked or buried the current one.  Returns (in the
 * current thread, possibly on another CPU) with sched_lock released.
 */
static void sched_switch(void)
{
	struct cpu *c = curcpu();
	struct thread *prev = c->cpu_thread, *next = rq_pop(c);
	uint64_t now = ktime_ns();

	if (next == NULL)
		next = steal(c);
	if (next == NULL)
		next = c->cpu_idle;
	else
		DTRACE_PROBE1(dequeue, next);
	c->cpu_need_resched = false;
	if (next == prev) {
		prev->t_state = TS_RUNNING;
		SCHED_UNLOCK();
		return;
	}
	DTRACE_PROBE1(off__cpu, next);              /* still curthread == prev, as in DTrace */
	prev->t_cputime += now - prev->t_oncpu_at;
	next->t_oncpu_at = now;
	next->t_state = TS_RUNNING;
	next->t_cpu = c->cpu_id;
	c->cpu_thread = next;
	CPU_STAT_ADD(c, sysinfo, pswitch, 1);
	if (prev->t_state == TS_RUNNABLE && prev != c->cpu_idle)
		CPU_STAT_ADD(c, sysinfo, inv_swtch, 1);   /* preempted or yielded, not asleep */
	if (prev->t_state == TS_ZOMBIE)
		c->cpu_to_reap = prev;
	arch_thread_switch(prev, next);
	arch_context_switch(&prev->t_rsp, next->t_rsp);
	sched_finish();
	DTRACE_PROBE(on__cpu);
}

void thread_yield(void)
{
	uint64_t flags = arch_irq_save();
	struct thread *self = curthread();

	SCHED_LOCK();
	self->t_state = TS_RUNNABLE;
	if (self != curcpu()->cpu_idle) {
		struct cpu *to = self->t_bound >= 0 ? &cpus[self->t_bound] : curcpu();
		DTRACE_PROBE1(enqueue, self);
		rq_push(to, self);
		if (to != curcpu() && to->cpu_thread == to->cpu_idle) {
			to->cpu_need_resched = true;
			arch_send_ipi(to->cpu_id, IPI_RESCHED);
		}
	}
	sched_switch();
	arch_irq_restore(flags);
}

void sched_preempt_check(void)
{
	if (curcpu()->cpu_need_resched)
		thread_yield();
}

/* The scheduler's tick, on every CPU: time to share this CPU? */
static void sched_tick_fn(void *arg)
{
	struct cpu *c = curcpu();

	(void)arg;
	cpu_stat_tick(c);
	kheap_tick(c->cpu_id);                  /* the heap's TLB epoch (kernel/kheap.c) */
	if (c->cpu_rq_len > 0)
		c->cpu_need_resched = true;
	else if (c->cpu_thread == c->cpu_idle)
		for (int i = 0; i < ncpus; i++)
			if (cpus[i].cpu_rq_len > 0)
				c->cpu_need_resched = true;   /* work to take */
}

/* ---- creation and exit ---- */

void sched_init(void)
{
	struct cpu *c = curcpu();
	struct thread *t = &boot_thread;

	t->t_tid = 0;
	kstrlcpy(t->t_name, "idle", sizeof(t->t_name));
	t->t_state = TS_RUNNING;
	t->t_bound = 0;
	t->t_stack = boot_stack;
	t->t_created = ktime_ns();
	t->t_oncpu_at = t->t_created;
	all_threads = all_tail = t;
	c->cpu_thread = c->cpu_idle = t;
	c->cpu_online = true;
}

static void thread_list_add(struct thread *t)
{
	t->t_tid = next_tid++;
	if (all_tail != NULL)
		all_tail->t_all_next = t;
	else
		all_threads = t;
	all_tail = t;
}

static void NORETURN idle_loop(void)
{
	struct cpu *c = curcpu();

	bool waiting = false;                   /* since it last ran something else */

	cyclic_start(&sched_tick[c->cpu_id], SCHED_QUANTUM_NS, 0, sched_tick_fn, NULL);
	for (;;) {
		arch_irq_disable();
		if (c->cpu_need_resched || c->cpu_rq_len > 0) {
			thread_yield();
			waiting = false;
		} else {
			if (!waiting)
				CPU_STAT_ADD(c, sysinfo, idlethread, 1);   /* the CPU enters its idle loop */
			waiting = true;
			arch_wait_for_interrupt();      /* sti; hlt: no lost wakeup */
		}
		arch_irq_enable();
	}
}

void sched_start(void)
{
	idle_loop();
}

void sched_start_ap(void)
{
	struct cpu *c = curcpu();
	struct thread *t = kzalloc(sizeof(*t));

	if (t == NULL)
		panic("smp: no memory for cpu %d's idle thread", c->cpu_id);
	kstrlcpy(t->t_name, "idle", sizeof(t->t_name));
	t->t_state = TS_RUNNING;
	t->t_cpu = c->cpu_id;
	t->t_bound = c->cpu_id;
	t->t_created = t->t_oncpu_at = ktime_ns();
	uint64_t flags = arch_irq_save();
	SCHED_LOCK();
	thread_list_add(t);
	c->cpu_thread = c->cpu_idle = t;
	SCHED_UNLOCK();
	arch_irq_restore(flags);
	idle_loop();
}

/* Called by thread_trampoline (switch.asm) on a new thread's first run. */
void thread_start(struct thread *t)
{
	sched_finish();
	DTRACE_PROBE(on__cpu);
	arch_irq_enable();
	t->t_fn(t->t_arg);
	thread_exit(0);
}

static struct thread *thread_make(const char *name, void (*fn)(void *), void *arg, uint64_t *tid);

struct thread *thread_create(const char *name, void (*fn)(void *), void *arg)
{
	return thread_make(name, fn, arg, NULL);
}

uint64_t thread_spawn(const char *name, void (*fn)(void *), void *arg)
{
	uint64_t tid = 0;

	thread_make(name, fn, arg, &tid);
	return tid;
}

static struct thread *thread_make(const char *name, void (*fn)(void *), void *arg, uint64_t *tid)
{
	struct thread *t = kzalloc(sizeof(*t));
	void *stack = t ? kmalloc(THREAD_STACK_SIZE) : NULL;

	if (stack == NULL) {
		kfree(t);
		return NULL;
	}
	kstrlcpy(t->t_name, name, sizeof(t->t_name));
	t->t_bound = -1;
	t->t_stack = stack;
	t->t_fn = fn;
	t->t_arg = arg;
	t->t_created = ktime_ns();
	t->t_rsp = arch_thread_stack_init((char *)stack + THREAD_STACK_SIZE, t);
	BAGGAGE_FORK(t);                            /* the creator's baggage, copied */
	SYSINFO_ADD(nthreads, 1);
	uint64_t flags = arch_irq_save();
	SCHED_LOCK();
	t->t_cpu = arch_cpu_id();
	thread_list_add(t);
	if (tid != NULL)
		*tid = t->t_tid;                    /* before it can run, exit and be freed */
	make_runnable(t);
	SCHED_UNLOCK();
	arch_irq_restore(flags);
	return t;
}

static void wake_all_locked(waitq_t *wq)
{
	struct thread *t;

	while ((t = tq_pop(&wq->wq_head, &wq->wq_tail)) != NULL) {
		DTRACE_PROBE1(wakeup, t);
		BAGGAGE_WAKE(t);                    /* waker's baggage to the wakee */
		make_runnable(t);
	}
}

void thread_exit(int status)
{
	struct thread *self = curthread();

	arch_irq_disable();
	if (self == curcpu()->cpu_idle)
		panic("thread_exit: the idle thread cannot exit");
	SCHED_LOCK();
	self->t_exit_status = status;
	self->t_state = TS_ZOMBIE;
	recent_exit(self);
	wake_all_locked(&self->t_joiners);
	sched_switch();
	panic("thread_exit: a zombie ran again");
}

/* ---- wait queues ---- */

/* sleep_locked: sleep on wq; sched_lock held on entry and again on return. */
static void sleep_locked(waitq_t *wq)
{
	struct thread *self = curthread();

	tq_push(&wq->wq_head, &wq->wq_tail, self);
	self->t_waitq = wq;
	self->t_state = TS_SLEEPING;
	DTRACE_PROBE1(sleep, wq);
	sched_switch();
	SCHED_LOCK();
}

void waitq_sleep(waitq_t *wq, spinlock_t *l)
{
	uint64_t saved = l->sl_flags;

	SCHED_LOCK();
	spin_release_raw(l);                    /* interrupts stay off until we switch */
	sleep_locked(wq);
	SCHED_UNLOCK();
	spin_acquire_raw(l);
	l->sl_flags = saved;
}

/* Timed sleep expired (cyclic, interrupts off). */
static void sleep_timeout(void *arg)
{
	struct thread *t = arg;

	SCHED_LOCK();
	if (t->t_state == TS_SLEEPING && t->t_waitq != NULL) {
		tq_remove(&t->t_waitq->wq_head, &t->t_waitq->wq_tail, t);
		t->t_timed_out = true;
		DTRACE_PROBE1(wakeup, t);
		make_runnable(t);
	}
	SCHED_UNLOCK();
}

bool waitq_sleep_timeout(waitq_t *wq, spinlock_t *l, uint64_t timeout_ns)
{
	struct thread *self = curthread();

	self->t_timed_out = false;
	cyclic_start(&self->t_timer, 0, timeout_ns, sleep_timeout, self);
	waitq_sleep(wq, l);
	cyclic_stop(&self->t_timer);
	return !self->t_timed_out;
}

void waitq_wake_one(waitq_t *wq)
{
	SCHED_LOCK();
	struct thread *t = tq_pop(&wq->wq_head, &wq->wq_tail);
	if (t != NULL) {
		DTRACE_PROBE1(wakeup, t);
		BAGGAGE_WAKE(t);                    /* waker's baggage to the wakee */
		make_runnable(t);
	}
	SCHED_UNLOCK();
}

void waitq_wake_all(waitq_t *wq)
{
	SCHED_LOCK();
	wake_all_locked(wq);
	SCHED_UNLOCK();
}

void thread_sleep_ns(uint64_t ns)
{
	spinlock_t l = SPINLOCK_INIT("sleep");
	waitq_t wq = WAITQ_INIT;
	uint64_t deadline = ktime_ns() + ns;

	spin_lock(&l);
	while (!thread_should_exit()) {
		uint64_t now = ktime_ns();
		if (now >= deadline)
			break;
		waitq_sleep_timeout(&wq, &l, deadline - now);
	}
	spin_unlock(&l);
}

/* ---- kill and join ---- */

static struct thread *thread_find(uint64_t tid)
{
	for (struct thread *t = all_threads; t != NULL; t = t->t_all_next)
		if (t->t_tid == tid && t->t_state != TS_ZOMBIE)
			return t;
	return NULL;
}

bool thread_kill(uint64_t tid)
{
	uint64_t flags = arch_irq_save();

	SCHED_LOCK();
	struct thread *t = thread_find(tid);
	bool ok = t != NULL && t != cpus[t->t_cpu].cpu_idle && t->t_tid != 0;
	if (ok) {
		t->t_killed = true;
		if (t->t_state == TS_SLEEPING && t->t_waitq != NULL) {
			tq_remove(&t->t_waitq->wq_head, &t->t_waitq->wq_tail, t);
			make_runnable(t);
		}
	}
	SCHED_UNLOCK();
	arch_irq_restore(flags);
	return ok;
}

void thread_set_untraced(bool on)
{
	curthread()->t_untraced = on;
}

void thread_set_prompt(bool on)
{
	curthread()->t_prompt = on;
}

void thread_set_process(const char *name, uint64_t pid)
{
	struct thread *t = curthread();
	char n[THREAD_NAME_MAX];

	kstrlcpy(n, name, sizeof(n));               /* name may be t_name itself */
	uint64_t flags = arch_irq_save();           /* probe context reads t_name: */
	memcpy(t->t_name, n, sizeof(n));            /* never a half-written one on this CPU */
	t->t_pid = pid;
	arch_irq_restore(flags);
}

bool thread_should_exit(void)
{
	return curthread()->t_killed;
}

int thread_join(uint64_t tid)
{
	uint64_t flags = arch_irq_save();
	bool free_it = false;
	int status;

	SCHED_LOCK();
	struct thread *t = thread_find(tid);
	if (t == NULL || t == curthread() || t == cpus[t->t_cpu].cpu_idle) {
		if (t != NULL || !recent_status(tid, &status))
			status = -1;                        /* else it already exited: its status */
		SCHED_UNLOCK();
		arch_irq_restore(flags);
		return status;
	}
	t->t_refs++;
	while (t->t_state != TS_ZOMBIE)
		sleep_locked(&t->t_joiners);
	status = t->t_exit_status;
	if (--t->t_refs == 0 && t->t_reap_by_joiner) {
		thread_unlist(t);
		free_it = true;
	}
	SCHED_UNLOCK();
	arch_irq_restore(flags);
	if (free_it)
		thread_free(t);
	return status;
}

/*
 * thread_stopped_each: call fn(t, running, arg) for every thread, with
 * sched_lock held and interrupts off: a thread that is not on a CPU
 * (running false) cannot run until this returns, so its saved stack is
 * still (fbt_jump.c looks for PCs inside code it is about to patch).  fn
 * must not sleep or allocate.  Thread context.
 */
void thread_stopped_each(void (*fn)(const struct thread *t, bool running, void *arg), void *arg)
{
	uint64_t flags = arch_irq_save();

	SCHED_LOCK();
	for (struct thread *t = all_threads; t != NULL; t = t->t_all_next)
		fn(t, cpus[t->t_cpu].cpu_thread == t, arg);
	SCHED_UNLOCK();
	arch_irq_restore(flags);
}

/* ---- listing ---- */

const char *thread_state_name(enum thread_state s)
{
	static const char *const names[] = {
		[TS_RUNNABLE] = "runnable", [TS_RUNNING] = "running",
		[TS_SLEEPING] = "sleeping", [TS_ZOMBIE] = "zombie",
	};
	return (unsigned)s < ARRAY_SIZE(names) ? names[s] : "?";
}

int thread_list(struct thread_info *out, int max)
{
	uint64_t flags = arch_irq_save(), now = ktime_ns();
	int n = 0;

	SCHED_LOCK();
	for (struct thread *t = all_threads; t != NULL; t = t->t_all_next, n++) {
		if (n >= max)
			continue;
		out[n].ti_tid = t->t_tid;
		kstrlcpy(out[n].ti_name, t->t_name, sizeof(out[n].ti_name));
		out[n].ti_state = t->t_state;
		out[n].ti_cpu = t->t_cpu;
		out[n].ti_cputime = t->t_cputime + (t->t_state == TS_RUNNING ? now - t->t_oncpu_at : 0);
	}
	SCHED_UNLOCK();
	arch_irq_restore(flags);
	return n;
}
