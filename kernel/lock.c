/*
 * lock.c - spinlocks and mutexes.
 *
 * A spinlock turns interrupts off on its CPU before it spins and keeps the
 * previous interrupt state in the lock, restoring it on release; so it may be
 * shared with interrupt handlers and a CPU never deadlocks on itself through
 * an interrupt.  A mutex is a spinlock-guarded owner plus a wait queue:
 * contended lockers sleep (thread context only).  Each acquisition, release,
 * spin and block is reported to the lockstat provider when it is enabled.  Wait queues live in
 * thread.c, next to the scheduler they need.
 *
 * Tests: self-tests mutex_excludes, waitq_timeout; tests/d/subr (mutex_owned
 *        and kin)
 */
#include "arch/arch.h"
#include "kernel/klib.h"
#include "kernel/lock.h"
#include "kernel/thread.h"
#include "kernel/time.h"

void spin_init(spinlock_t *l, const char *name)
{
	*l = (spinlock_t)SPINLOCK_INIT(name);
}

void (*volatile lockstat_hook)(enum lockstat_event ev, void *lock, uint64_t arg);

/*
 * lockstat: report ev.  Always inlined, into lock functions that never are:
 * the lock function is always the one frame lockstat's probes leave out of
 * stack(), which starts at its caller (prov_lockstat.c).
 */
static inline __attribute__((always_inline)) void lockstat(enum lockstat_event ev, void *lock, uint64_t arg)
{
	void (*hook)(enum lockstat_event, void *, uint64_t) = lockstat_hook;

	if (hook != NULL)
		hook(ev, lock, arg);
}

uint64_t spin_acquire_raw(spinlock_t *l)
{
	uint64_t spins = 0;

	while (__atomic_exchange_n(&l->sl_locked, 1, __ATOMIC_ACQUIRE) != 0)
		while (__atomic_load_n(&l->sl_locked, __ATOMIC_RELAXED) != 0) {
			arch_cpu_relax();
			spins++;
		}
	return spins;
}

void spin_release_raw(spinlock_t *l)
{
	__atomic_store_n(&l->sl_locked, 0, __ATOMIC_RELEASE);
}

__attribute__((noinline)) void spin_lock(spinlock_t *l)
{
	uint64_t flags = arch_irq_save();
	uint64_t spins = spin_acquire_raw(l);

	l->sl_flags = flags;
	if (spins != 0)
		lockstat(LS_SPIN_SPIN, l, spins);
	lockstat(LS_SPIN_ACQUIRE, l, 0);
}

__attribute__((noinline)) void spin_unlock(spinlock_t *l)
{
	uint64_t flags = l->sl_flags;

	spin_release_raw(l);
	lockstat(LS_SPIN_RELEASE, l, 0);
	arch_irq_restore(flags);
}

bool spin_held(spinlock_t *l)
{
	return l->sl_locked != 0;
}

void mutex_init(mutex_t *m, const char *name)
{
	*m = (mutex_t)MUTEX_INIT(name);
}

__attribute__((noinline)) void mutex_lock(mutex_t *m)
{
	struct thread *self = curthread();

	uint64_t blocked_at = 0;

	spin_lock(&m->mx_lock);
	if (m->mx_owner == self)
		panic("mutex_lock: %s already held by thread %lu", m->mx_name, self->t_tid);
	if (m->mx_owner != NULL)
		blocked_at = ktime_ns();
	while (m->mx_owner != NULL)
		waitq_sleep(&m->mx_waiters, &m->mx_lock);
	m->mx_owner = self;
	spin_unlock(&m->mx_lock);
	if (blocked_at != 0)
		lockstat(LS_ADAPTIVE_BLOCK, m, ktime_ns() - blocked_at);
	lockstat(LS_ADAPTIVE_ACQUIRE, m, 0);
}

__attribute__((noinline)) void mutex_unlock(mutex_t *m)
{
	spin_lock(&m->mx_lock);
	if (m->mx_owner != curthread())
		panic("mutex_unlock: %s not held by the caller", m->mx_name);
	m->mx_owner = NULL;
	waitq_wake_one(&m->mx_waiters);
	spin_unlock(&m->mx_lock);
	lockstat(LS_ADAPTIVE_RELEASE, m, 0);
}

bool mutex_held(mutex_t *m)
{
	return m->mx_owner == curthread();
}
