/*
 * lock.h - spinlocks and mutexes.
 *
 * A spinlock disables interrupts on the local CPU for as long as it is held
 * (the saved interrupt state is kept in the lock), so it may be taken from
 * interrupt handlers.  A mutex sleeps; thread context only.
 */
#ifndef SONDE_LOCK_H
#define SONDE_LOCK_H

#include <stdbool.h>
#include <stdint.h>

struct thread;

/*
 * sl_kind tells a bare spinlock from the one at the start of a mutex, so that
 * D's mutex_type_spin() and mutex_type_adaptive() can tell which a kernel
 * address holds (trace/lockinfo.c reads it).  It fills what was padding.
 */
#define LOCK_KIND_SPIN     0u
#define LOCK_KIND_ADAPTIVE 0x4d55u   /* "MU": the spinlock inside a mutex_t */

typedef struct spinlock {
	volatile uint32_t sl_locked;
	uint32_t sl_kind;            /* LOCK_KIND_* */
	uint64_t sl_flags;           /* interrupt state saved by spin_lock */
	const char *sl_name;
} spinlock_t;

#define SPINLOCK_INIT_KIND(name, kind) \
	{ .sl_locked = 0, .sl_kind = (kind), .sl_flags = 0, .sl_name = (name) }
#define SPINLOCK_INIT(name) SPINLOCK_INIT_KIND(name, LOCK_KIND_SPIN)

void spin_init(spinlock_t *l, const char *name);
void spin_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);
bool spin_held(spinlock_t *l);
/* For the scheduler: take or drop the lock word only, leaving interrupts as they are.
 * spin_acquire_raw returns how many times it had to spin. */
uint64_t spin_acquire_raw(spinlock_t *l);
void spin_release_raw(spinlock_t *l);

/* A wait queue: threads sleep on it until woken. */
typedef struct waitq {
	struct thread *wq_head;
	struct thread *wq_tail;
} waitq_t;

#define WAITQ_INIT { 0, 0 }

/*
 * waitq_sleep: atomically release l (held by the caller), sleep on wq until
 * woken, then re-take l.  Thread context.  Callers re-check their condition.
 * waitq_sleep_timeout: the same, waking after timeout_ns at the latest;
 * returns false on timeout.
 */
void waitq_sleep(waitq_t *wq, spinlock_t *l);
bool waitq_sleep_timeout(waitq_t *wq, spinlock_t *l, uint64_t timeout_ns);
/* waitq_wake_one/all: make sleepers runnable.  Any context (caller holds the lock guarding wq). */
void waitq_wake_one(waitq_t *wq);
void waitq_wake_all(waitq_t *wq);

typedef struct mutex {
	spinlock_t mx_lock;
	struct thread *mx_owner;
	waitq_t mx_waiters;
	const char *mx_name;
} mutex_t;

#define MUTEX_INIT(name) { .mx_lock = SPINLOCK_INIT_KIND(name, LOCK_KIND_ADAPTIVE), .mx_owner = 0, .mx_waiters = WAITQ_INIT, .mx_name = (name) }

void mutex_init(mutex_t *m, const char *name);
void mutex_lock(mutex_t *m);
void mutex_unlock(mutex_t *m);
bool mutex_held(mutex_t *m);

/*
 * lockstat: while the lockstat provider has probes enabled it sets
 * lockstat_hook, and the lock code reports each event through it (a load and
 * a branch when disabled).  arg: spins (spin), ns blocked (block), else 0.
 */
enum lockstat_event {
	LS_SPIN_ACQUIRE, LS_SPIN_RELEASE, LS_SPIN_SPIN,
	LS_ADAPTIVE_ACQUIRE, LS_ADAPTIVE_RELEASE, LS_ADAPTIVE_SPIN, LS_ADAPTIVE_BLOCK,
	LS_NEVENTS
};
extern void (*volatile lockstat_hook)(enum lockstat_event ev, void *lock, uint64_t arg);

#endif
