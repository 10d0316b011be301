/*
 * prov_proc.c - the proc provider: process creation, exec, exit, signals.
 *
 *   proc:::create         args[0] = psinfo_t * of the child     (in the parent)
 *   proc:::exec           args[0] = char *, the path (a kernel string)
 *   proc:::exec-success   -                             (in the new program)
 *   proc:::exec-failure   args[0] = int, the errno
 *   proc:::exit           args[0] = int: 1 exited, 2 killed (CLD_EXITED, CLD_KILLED)
 *   proc:::signal-send    args[0] = lwpsinfo_t *, args[1] = psinfo_t * of the
 *                         target, args[2] = int, the signal
 *   proc:::start          -                             (the new process's first run)
 *   proc:::lwp-start      -                             (its thread's first run)
 *
 * The arguments are typed as the Dynamic Tracing Guide documents them
 * (dtps_getargdesc): the native argument of a psinfo_t * or lwpsinfo_t *
 * is the process's struct proc * (its slot in the process table, which is
 * never freed), translated by dlang/lib/procfs.d, as sched's are from a
 * struct thread *.  The probes fire through proc_probe_hook
 * (kernel/proc.h), set while any of them is enabled.  Context: thread
 * context, interrupts on.
 *
 * Tests: tests/d/proc; tests/e2e/test_proc.py, test_dtrace_listing.py
 */
#include "kernel/klib.h"
#include "kernel/proc.h"
#include "trace/provider.h"
#include "trace/sdt_argtypes.h"

static const char *const pr_names[PROC_EV_COUNT] = {
	[PROC_EV_CREATE] = "create", [PROC_EV_EXEC] = "exec",
	[PROC_EV_EXEC_SUCCESS] = "exec-success", [PROC_EV_EXEC_FAILURE] = "exec-failure",
	[PROC_EV_EXIT] = "exit", [PROC_EV_SIGNAL_SEND] = "signal-send",
	[PROC_EV_START] = "start", [PROC_EV_LWP_START] = "lwp-start",
};
static dtrace_id_t pr_ids[PROC_EV_COUNT];
static int pr_enabled;                            /* probes enabled: the hook is set while > 0 */

static void pr_fire(enum proc_event ev, uint64_t a0, uint64_t a1, uint64_t a2)
{
	if (ev < PROC_EV_COUNT)
		dtrace_probe(pr_ids[ev], a0, a1, a2, 0, 0, 0);
}

static int pr_enable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg; (void)id; (void)parg;
	if (pr_enabled++ == 0)
		proc_probe_hook = pr_fire;
	return 0;
}

static void pr_disable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg; (void)id; (void)parg;
	if (--pr_enabled == 0)
		proc_probe_hook = NULL;
}

/* What each probe's arguments are: trace/sdt_argtypes.h, shared with the host's dtc. */
static int pr_getargdesc(void *arg, const dtrace_probedesc_t *pd, void *parg, int argno,
                         dtrace_argdesc_t *ad)
{
	(void)arg; (void)parg;
	for (size_t i = 0; i < ARRAY_SIZE(proc_argdescs); i++) {
		const struct proc_argdesc *pa = &proc_argdescs[i];
		if (strcmp(pd->dpd_name, pa->pa_name) != 0)
			continue;
		if (argno < 0 || argno >= 3 || pa->pa_native[argno] == NULL)
			return -1;
		const char *xl = pa->pa_xlate[argno];
		ksnprintf(ad->dad_native, sizeof(ad->dad_native), "%s", pa->pa_native[argno]);
		ksnprintf(ad->dad_xlate, sizeof(ad->dad_xlate), "%s", xl != NULL ? xl : "");
		return 0;
	}
	return -1;
}

static const dtrace_pops_t pr_pops = {
	.dtps_enable = pr_enable,
	.dtps_disable = pr_disable,
	.dtps_getargdesc = pr_getargdesc,
};

/* Stability: the proc provider's table in the Dynamic Tracing Guide. */
static const dtrace_pattr_t pr_attr = {
	.dtpa_provider = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	.dtpa_mod = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_func = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_name = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	.dtpa_args = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
};

void proc_prov_init(void)
{
	dtrace_provider_t *p = dtrace_register("proc", &pr_pops, NULL);

	if (p == NULL)
		panic("proc_prov_init: cannot register");
	dtrace_provider_attr_set(p, &pr_attr);
	for (int ev = 0; ev < PROC_EV_COUNT; ev++)
		pr_ids[ev] = dtrace_probe_create(p, "", "", pr_names[ev], 0, NULL);
}
