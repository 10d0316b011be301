/*
 * trace/lockinfo.c: what D's lock subroutines (mutex_owned, mutex_owner,
 * mutex_type_adaptive, mutex_type_spin, rw_read_held, rw_write_held,
 * rw_iswriter) learn about a kernel lock, given only its address.
 *
 * Sonde has two kinds of lock (kernel/lock.h): a spinlock (DTrace's spin
 * mutex) and a mutex (DTrace's adaptive mutex: an owner and a wait queue,
 * with a spinlock at its start whose sl_kind says LOCK_KIND_ADAPTIVE).  It
 * has no reader-writer locks, so the rw_ queries see every Sonde lock as a
 * lock that only writers take: rw_write_held() and rw_iswriter() are true
 * while it is held, rw_read_held() never.  mutex_owned() of a mutex is true
 * only in the thread that holds it (as DTrace's for an adaptive mutex), of a
 * spinlock whenever it is held; mutex_owner() of a spinlock is NULL.
 *
 * The lock is read with the same guarded loads as any D memory access: an
 * address that is not a mapped, aligned kernel lock is a fault (bad address
 * or alignment) recorded for the clause, never a trap.  Nothing is written
 * and no lock is taken: the answer is a snapshot, as DTrace's is.
 *
 * Context: probe context (dif_env_t's de_lock); interrupts off.
 *
 * Tests: tests/d/subr (lockstat's mutex and spinlock subroutines)
 */
#include <stddef.h>

#include "kernel/lock.h"
#include "kernel/thread.h"
#include "trace/trace_impl.h"

struct lock_view {
	uint64_t lv_locked;
	bool lv_adaptive;
	uint64_t lv_owner;           /* mutexes only */
};

static int lock_view_read(uint64_t addr, struct lock_view *lv)
{
	uint64_t kind = 0;
	int f;

	if (addr & 7)
		return DIF_FAULT_BADALIGN;
	if ((f = dtrace_load(NULL, addr + offsetof(spinlock_t, sl_locked), 4,
	                     DIF_SPACE_KERNEL, &lv->lv_locked)) != 0 ||
	    (f = dtrace_load(NULL, addr + offsetof(spinlock_t, sl_kind), 4,
	                     DIF_SPACE_KERNEL, &kind)) != 0)
		return f;
	lv->lv_adaptive = kind == LOCK_KIND_ADAPTIVE;
	lv->lv_owner = 0;
	if (lv->lv_adaptive)
		return dtrace_load(NULL, addr + offsetof(mutex_t, mx_owner), 8,
		                   DIF_SPACE_KERNEL, &lv->lv_owner);
	return 0;
}

int dtrace_lockinfo(void *ctx, uint64_t addr, unsigned query, uint64_t *val)
{
	struct lock_view lv;
	bool held;
	int f;

	(void)ctx;
	if ((f = lock_view_read(addr, &lv)) != 0)
		return f;
	held = lv.lv_adaptive ? lv.lv_owner != 0 : lv.lv_locked != 0;
	switch (query) {
	case DIF_LOCK_OWNED:
		*val = lv.lv_adaptive ? lv.lv_owner == (uint64_t)curthread() : held;
		return 0;
	case DIF_LOCK_OWNER: *val = lv.lv_owner; return 0;
	case DIF_LOCK_ADAPTIVE: *val = lv.lv_adaptive; return 0;
	case DIF_LOCK_SPIN: *val = !lv.lv_adaptive; return 0;
	case DIF_LOCK_RW_READ: *val = 0; return 0;
	case DIF_LOCK_RW_WRITE: case DIF_LOCK_RW_ISWRITER: *val = held; return 0;
	default: return DIF_FAULT_ILLOP;
	}
}
