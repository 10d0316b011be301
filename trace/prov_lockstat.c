/*
 * prov_lockstat.c - the lockstat provider: lock events as probes.
 *
 *   lockstat:kernel:spin_lock:spin-acquire      arg0 = lock
 *   lockstat:kernel:spin_unlock:spin-release    arg0 = lock
 *   lockstat:kernel:spin_lock:spin-spin         arg0 = lock, arg1 = spins before it was had
 *   lockstat:kernel:mutex_lock:adaptive-acquire arg0 = mutex
 *   lockstat:kernel:mutex_unlock:adaptive-release
 *   lockstat:kernel:mutex_lock:adaptive-spin    (never fires: Sonde's mutexes sleep at once)
 *   lockstat:kernel:mutex_lock:adaptive-block   arg0 = mutex, arg1 = ns blocked
 *
 * The lock code (kernel/lock.c) calls lockstat_hook when it is set; the hook
 * is set while any of these probes is enabled.  stack() starts at the
 * lock function's caller, as in DTrace: the probes' one artificial frame
 * (aframes) is the lock function, which kernel/lock.c never inlines.  The
 * scheduler's own lock is taken raw and never reported (its probes would
 * fire inside a context switch).
 *
 * Tests: tests/d/subr; tests/d/probes (lockstat listing); tests/e2e/test_stacks.py
 */
#include "kernel/klib.h"
#include "kernel/lock.h"
#include "trace/provider.h"

struct ls_probe {
	const char *lp_func;
	const char *lp_name;
};

static const struct ls_probe ls_probes[LS_NEVENTS] = {
	[LS_SPIN_ACQUIRE] = { "spin_lock", "spin-acquire" },
	[LS_SPIN_RELEASE] = { "spin_unlock", "spin-release" },
	[LS_SPIN_SPIN] = { "spin_lock", "spin-spin" },
	[LS_ADAPTIVE_ACQUIRE] = { "mutex_lock", "adaptive-acquire" },
	[LS_ADAPTIVE_RELEASE] = { "mutex_unlock", "adaptive-release" },
	[LS_ADAPTIVE_SPIN] = { "mutex_lock", "adaptive-spin" },
	[LS_ADAPTIVE_BLOCK] = { "mutex_lock", "adaptive-block" },
};

static dtrace_id_t ls_ids[LS_NEVENTS];
static volatile uint32_t ls_enabled;            /* bit per event */

static void ls_fire(enum lockstat_event ev, void *lock, uint64_t arg)
{
	if (ls_enabled & (1u << ev))
		dtrace_probe(ls_ids[ev], (uint64_t)lock, arg, 0, 0, 0, 0);
}

static int ls_enable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg;
	(void)id;
	__atomic_or_fetch(&ls_enabled, 1u << (uintptr_t)parg, __ATOMIC_SEQ_CST);
	lockstat_hook = ls_fire;
	return 0;
}

static void ls_disable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg;
	(void)id;
	if (__atomic_and_fetch(&ls_enabled, ~(1u << (uintptr_t)parg), __ATOMIC_SEQ_CST) == 0)
		lockstat_hook = NULL;
}

static const dtrace_pops_t ls_pops = {
	.dtps_enable = ls_enable,
	.dtps_disable = ls_disable,
};

/* Stability: the lockstat provider's table in the Dynamic Tracing Guide. */
static const dtrace_pattr_t lockstat_attr = {
	.dtpa_provider = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	.dtpa_mod = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_func = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_name = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	.dtpa_args = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
};

void lockstat_init(void)
{
	dtrace_provider_t *p = dtrace_register("lockstat", &ls_pops, NULL);

	if (p == NULL)
		panic("lockstat_init: cannot register");
	dtrace_provider_attr_set(p, &lockstat_attr);
	for (int ev = 0; ev < LS_NEVENTS; ev++)
		ls_ids[ev] = dtrace_probe_create(p, "kernel", ls_probes[ev].lp_func, ls_probes[ev].lp_name,
		                                 1, (void *)(uintptr_t)ev);
}
