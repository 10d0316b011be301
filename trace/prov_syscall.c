/*
 * prov_syscall.c - the syscall provider: an entry and a return probe for
 * every system call in the table.
 *
 *   syscall::<name>:entry    arg0..arg5 = the call's arguments
 *   syscall::<name>:return   arg0 = arg1 = the return value (-1 on
 *                            failure, with errno set, as in DTrace)
 *
 * The probes come from the same table as the dispatcher
 * (kernel/syscalls.def, through kernel/syscall.h), so every call there has
 * its two probes, implemented or not.  Enabling a probe routes that one
 * call's slot through sc_stub, which fires around the real handler;
 * disabling the last probe of a call puts the handler back.  A disabled
 * call thus runs exactly the code it runs with no provider at all (table
 * patching, as DTrace's systrace does).  exit, and execve when it succeeds,
 * do not return, so their return probes never fire (as in DTrace).
 *
 * Context: sc_stub runs in the calling process's thread with interrupts
 * on; dtrace_probe turns them off for the firing.
 *
 * Tests: tests/d/proc; tests/e2e/test_proc.py
 */
#include "kernel/klib.h"
#include "kernel/proc.h"
#include "kernel/syscall.h"
#include "kernel/thread.h"
#include "trace/provider.h"

static dtrace_id_t sc_on[SYSCALL_MAX][2];         /* enabled probe ids: [nr][0 entry, 1 return] */

static int64_t sc_stub(const uint64_t a[6])
{
	struct thread *t = curthread();
	uint32_t nr = t->t_sysnum;
	dtrace_id_t id = __atomic_load_n(&sc_on[nr][0], __ATOMIC_RELAXED);

	if (id != 0)
		dtrace_probe(id, a[0], a[1], a[2], a[3], a[4], a[5]);
	syscall_fn *h = syscall_handler(nr);
	int64_t rv = h != NULL ? h(a) : -ENOSYS;
	bool failed = rv < 0 && rv > -4096;
	t->t_errno = failed ? (int)-rv : 0;
	if ((id = __atomic_load_n(&sc_on[nr][1], __ATOMIC_RELAXED)) != 0) {
		uint64_t r = failed ? (uint64_t)-1 : (uint64_t)rv;
		dtrace_probe(id, r, r, 0, 0, 0, 0);
	}
	return rv;
}

/* The probe's parg: (nr << 1) | (1 for return), plus one so it is never NULL. */
static void sc_parg_decode(void *parg, uint64_t *nr, int *ret)
{
	uint64_t v = (uint64_t)parg - 1;

	*nr = v >> 1;
	*ret = (int)(v & 1);
}

static int sc_enable(void *arg, dtrace_id_t id, void *parg)
{
	uint64_t nr;
	int ret;

	(void)arg;
	sc_parg_decode(parg, &nr, &ret);
	__atomic_store_n(&sc_on[nr][ret], id, __ATOMIC_RELEASE);
	syscall_route(nr, sc_stub);
	return 0;
}

static void sc_disable(void *arg, dtrace_id_t id, void *parg)
{
	uint64_t nr;
	int ret;

	(void)arg;
	(void)id;
	sc_parg_decode(parg, &nr, &ret);
	__atomic_store_n(&sc_on[nr][ret], 0, __ATOMIC_RELEASE);
	if (sc_on[nr][0] == 0 && sc_on[nr][1] == 0)
		syscall_route(nr, NULL);
}

static const dtrace_pops_t sc_pops = {
	.dtps_enable = sc_enable,
	.dtps_disable = sc_disable,
};

/*
 * Stability: the syscall provider's table in the Dynamic Tracing Guide (a
 * call's name and arguments are Unstable, ISA-dependent).  The module is
 * always empty, so dtrace -lv shows the lowest of provider, function and
 * name: Unstable/Unstable/ISA.
 */
static const dtrace_pattr_t sc_attr = {
	.dtpa_provider = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	.dtpa_mod = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_func = { DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_UNSTABLE, DTRACE_CLASS_ISA },
	.dtpa_name = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	.dtpa_args = { DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_UNSTABLE, DTRACE_CLASS_ISA },
};

void syscall_prov_init(void)
{
	dtrace_provider_t *p = dtrace_register("syscall", &sc_pops, NULL);

	if (p == NULL)
		panic("syscall_prov_init: cannot register");
	dtrace_provider_attr_set(p, &sc_attr);
	for (uint64_t nr = 0; nr < SYSCALL_MAX; nr++) {
		int nargs;
		const char *name = syscall_name(nr, &nargs);
		if (name == NULL)
			continue;
		dtrace_probe_create(p, "", name, "entry", 0, (void *)((nr << 1) + 1));
		dtrace_probe_create(p, "", name, "return", 0, (void *)((nr << 1 | 1) + 1));
	}
}
