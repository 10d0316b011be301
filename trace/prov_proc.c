/*
 * prov_proc.c - the proc provider: process creation, exec, exit, signals.
 *
 *   proc:::create         arg0 = the child's pid        (in the parent)
 *   proc:::exec           arg0 = the path (a kernel string address)
 *   proc:::exec-success   -                             (in the new program)
 *   proc:::exec-failure   arg0 = errno
 *   proc:::exit           arg0 = 1 exited, 2 killed (CLD_EXITED, CLD_KILLED)
 *   proc:::signal-send    arg0 = target tid, arg1 = target pid, arg2 = signal
 *   proc:::start          -                             (the new process's first run)
 *   proc:::lwp-start      -                             (its thread's first run)
 *
 * DTrace passes psinfo_t and lwpsinfo_t pointers where these pass pids and
 * tids: Sonde has no kernel types for D yet (docs/providers.md).  The
 * probes fire through proc_probe_hook (kernel/proc.h), set while any of
 * them is enabled.  Context: thread context, interrupts on.
 *
 * Tests: tests/d/proc; tests/e2e/test_proc.py
 */
#include "kernel/klib.h"
#include "kernel/proc.h"
#include "trace/provider.h"

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

static const dtrace_pops_t pr_pops = {
	.dtps_enable = pr_enable,
	.dtps_disable = pr_disable,
};

void proc_prov_init(void)
{
	dtrace_provider_t *p = dtrace_register("proc", &pr_pops, NULL);

	if (p == NULL)
		panic("proc_prov_init: cannot register");
	for (int ev = 0; ev < PROC_EV_COUNT; ev++)
		pr_ids[ev] = dtrace_probe_create(p, "", "", pr_names[ev], 0, NULL);
}
