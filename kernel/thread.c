/*
 * thread.c - kernel threads, the scheduler and wait queues.
 *
 * Round robin on one run queue.  A thread runs until it sleeps, yields,
 * exits, or its quantum ends: the scheduler's cyclic sets cpu_need_resched
 * every SCHED_QUANTUM_NS and the interrupt path yields on its way out.  The
 * boot thread becomes the idle thread, which halts when nothing is runnable.
 *
 * Invariants: the run queue, wait queues and thread states change only with
 * interrupts off (one CPU: that is the lock).  A thread is on at most one
 * queue (t_rq_next).  An exited thread (zombie) is freed by the next thread
 * to run, since nobody can free the stack they stand on, unless joiners
 * still hold a reference, in which case the last joiner frees it.
 *
 * Order below: queues, switching, creation and exit, sleeping, wait queues,
 * kill and join, listing.
 */
#include "arch/arch.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/sdt.h"
#include "kernel/thread.h"

static struct thread boot_thread;
static struct thread *all_threads, *all_tail;
static struct thread *rq_head, *rq_tail;
static struct thread *to_reap;
static uint64_t next_tid = 1;
static struct cyclic sched_tick;

extern char boot_stack[], boot_stack_top[];

struct thread *curthread(void)
{
	return curcpu()->cpu_thread;
}

/* ---- queues (interrupts off) ---- */

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

static void make_runnable(struct thread *t)
{
	t->t_state = TS_RUNNABLE;
	t->t_waitq = NULL;
	DTRACE_PROBE1(enqueue, t);
	tq_push(&rq_head, &rq_tail, t);
	curcpu()->cpu_need_resched = curthread() == curcpu()->cpu_idle;
}

/* ---- switching (interrupts off) ---- */

static void thread_free(struct thread *t)
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
	kfree(t->t_stack);
	kfree(t);
}

/* sched_finish: first thing a thread does after being switched to. */
static void sched_finish(void)
{
	struct thread *z = to_reap;

	if (z != NULL && z != curthread()) {
		to_reap = NULL;
		if (z->t_refs == 0)
			thread_free(z);
		else
			z->t_reap_by_joiner = true;
	}
}

/* sched_switch: run the next runnable thread; the caller already queued or parked the current one. */
static void sched_switch(void)
{
	struct cpu *c = curcpu();
	struct thread *prev = c->cpu_thread, *next = tq_pop(&rq_head, &rq_tail);
	uint64_t now = ktime_ns();

	if (next == NULL)
		next = c->cpu_idle;
	else
		DTRACE_PROBE1(dequeue, next);
	c->cpu_need_resched = false;
	if (next == prev) {
		prev->t_state = TS_RUNNING;
		return;
	}
	prev->t_cputime += now - prev->t_oncpu_at;
	next->t_oncpu_at = now;
	next->t_state = TS_RUNNING;
	next->t_cpu = c->cpu_id;
	c->cpu_thread = next;
	c->cpu_switches++;
	if (prev->t_state == TS_ZOMBIE)
		to_reap = prev;
	DTRACE_PROBE1(off__cpu, next);
	arch_context_switch(&prev->t_rsp, next->t_rsp);
	sched_finish();
	DTRACE_PROBE(on__cpu);
}

void thread_yield(void)
{
	uint64_t flags = arch_irq_save();
	struct thread *self = curthread();

	self->t_state = TS_RUNNABLE;
	if (self != curcpu()->cpu_idle) {
		DTRACE_PROBE1(enqueue, self);
		tq_push(&rq_head, &rq_tail, self);
	}
	sched_switch();
	arch_irq_restore(flags);
}

void sched_preempt_check(void)
{
	if (curcpu()->cpu_need_resched)
		thread_yield();
}

static void sched_tick_fn(void *arg)
{
	(void)arg;
	if (rq_head != NULL)
		curcpu()->cpu_need_resched = true;
}

/* ---- creation and exit ---- */

void sched_init(void)
{
	struct cpu *c = curcpu();
	struct thread *t = &boot_thread;

	t->t_tid = 0;
	kstrlcpy(t->t_name, "idle", sizeof(t->t_name));
	t->t_state = TS_RUNNING;
	t->t_stack = boot_stack;
	t->t_created = ktime_ns();
	t->t_oncpu_at = t->t_created;
	all_threads = all_tail = t;
	c->cpu_thread = c->cpu_idle = t;
}

void sched_start(void)
{
	cyclic_start(&sched_tick, SCHED_QUANTUM_NS, 0, sched_tick_fn, NULL);
	for (;;) {
		arch_irq_disable();
		if (rq_head != NULL)
			thread_yield();
		else
			arch_wait_for_interrupt();      /* sti; hlt: no lost wakeup */
		arch_irq_enable();
	}
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

struct thread *thread_create(const char *name, void (*fn)(void *), void *arg)
{
	struct thread *t = kzalloc(sizeof(*t));
	void *stack = t ? kmalloc(THREAD_STACK_SIZE) : NULL;

	if (stack == NULL) {
		kfree(t);
		return NULL;
	}
	kstrlcpy(t->t_name, name, sizeof(t->t_name));
	t->t_stack = stack;
	t->t_fn = fn;
	t->t_arg = arg;
	t->t_created = ktime_ns();
	t->t_rsp = arch_thread_stack_init((char *)stack + THREAD_STACK_SIZE, t);
	uint64_t flags = arch_irq_save();
	t->t_tid = next_tid++;
	if (all_tail != NULL)
		all_tail->t_all_next = t;
	else
		all_threads = t;
	all_tail = t;
	make_runnable(t);
	arch_irq_restore(flags);
	return t;
}

void thread_exit(int status)
{
	struct thread *self = curthread();

	arch_irq_disable();
	if (self == curcpu()->cpu_idle)
		panic("thread_exit: the idle thread cannot exit");
	self->t_exit_status = status;
	self->t_state = TS_ZOMBIE;
	waitq_wake_all(&self->t_joiners);
	sched_switch();
	panic("thread_exit: a zombie ran again");
}

/* ---- wait queues (the caller holds the spinlock that guards wq) ---- */

void waitq_sleep(waitq_t *wq, spinlock_t *l)
{
	struct thread *self = curthread();
	uint64_t saved = l->sl_flags;

	tq_push(&wq->wq_head, &wq->wq_tail, self);
	self->t_waitq = wq;
	self->t_state = TS_SLEEPING;
	DTRACE_PROBE1(sleep, wq);
	spin_release_raw(l);                    /* interrupts stay off until we switch */
	sched_switch();
	spin_acquire_raw(l);
	l->sl_flags = saved;
}

/* Timed sleep expired (cyclic, interrupts off). */
static void sleep_timeout(void *arg)
{
	struct thread *t = arg;

	if (t->t_state == TS_SLEEPING && t->t_waitq != NULL) {
		tq_remove(&t->t_waitq->wq_head, &t->t_waitq->wq_tail, t);
		t->t_timed_out = true;
		DTRACE_PROBE1(wakeup, t);
		make_runnable(t);
	}
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
	struct thread *t = tq_pop(&wq->wq_head, &wq->wq_tail);

	if (t != NULL) {
		DTRACE_PROBE1(wakeup, t);
		make_runnable(t);
	}
}

void waitq_wake_all(waitq_t *wq)
{
	struct thread *t;

	while ((t = tq_pop(&wq->wq_head, &wq->wq_tail)) != NULL) {
		DTRACE_PROBE1(wakeup, t);
		make_runnable(t);
	}
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
	struct thread *t = thread_find(tid);

	if (t != NULL && t != curcpu()->cpu_idle) {
		t->t_killed = true;
		if (t->t_state == TS_SLEEPING && t->t_waitq != NULL) {
			tq_remove(&t->t_waitq->wq_head, &t->t_waitq->wq_tail, t);
			make_runnable(t);
		}
	}
	arch_irq_restore(flags);
	return t != NULL && t->t_tid != 0;
}

bool thread_should_exit(void)
{
	return curthread()->t_killed;
}

int thread_join(uint64_t tid)
{
	spinlock_t l = SPINLOCK_INIT("join");
	struct thread *t;
	int status;

	spin_lock(&l);
	t = thread_find(tid);
	if (t == NULL || t == curthread() || t->t_tid == 0) {
		spin_unlock(&l);
		return -1;
	}
	t->t_refs++;
	while (t->t_state != TS_ZOMBIE)
		waitq_sleep(&t->t_joiners, &l);
	status = t->t_exit_status;
	if (--t->t_refs == 0 && t->t_reap_by_joiner)
		thread_free(t);
	spin_unlock(&l);
	return status;
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

	for (struct thread *t = all_threads; t != NULL; t = t->t_all_next, n++) {
		if (n >= max)
			continue;
		out[n].ti_tid = t->t_tid;
		kstrlcpy(out[n].ti_name, t->t_name, sizeof(out[n].ti_name));
		out[n].ti_state = t->t_state;
		out[n].ti_cpu = t->t_cpu;
		out[n].ti_cputime = t->t_cputime + (t->t_state == TS_RUNNING ? now - t->t_oncpu_at : 0);
	}
	arch_irq_restore(flags);
	return n;
}
