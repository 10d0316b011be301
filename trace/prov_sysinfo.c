/*
 * prov_sysinfo.c - the sysinfo provider: kernel statistics as probes.
 *
 *   sysinfo:kernel:xcall:xcalls   a cross-call was sent; arg0 = 1 (the
 *                                 increment, as DTrace's sysinfo probes),
 *                                 arg1 = the target CPU
 *
 * The paper's case study found its problem by counting cross-calls; this is
 * the probe for that.  kernel/xcall.c calls xcall_probe_hook while it is set.
 *
 * Tests: tests/d/proc (sysinfo:::xcalls); tests/e2e/test_mem.py
 */
#include "kernel/klib.h"
#include "kernel/xcall.h"
#include "trace/provider.h"

static dtrace_id_t si_xcalls;

static void si_xcall_fire(int target)
{
	dtrace_probe(si_xcalls, 1, (uint64_t)target, 0, 0, 0, 0);
}

static int si_enable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg; (void)id; (void)parg;
	xcall_probe_hook = si_xcall_fire;
	return 0;
}

static void si_disable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg; (void)id; (void)parg;
	xcall_probe_hook = NULL;
}

static const dtrace_pops_t si_pops = {
	.dtps_enable = si_enable,
	.dtps_disable = si_disable,
};

/* Stability: the sysinfo provider's table in the Dynamic Tracing Guide. */
static const dtrace_pattr_t sysinfo_attr = {
	.dtpa_provider = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	.dtpa_mod = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_func = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_name = { DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	.dtpa_args = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA },
};

void sysinfo_init(void)
{
	dtrace_provider_t *p = dtrace_register("sysinfo", &si_pops, NULL);

	if (p == NULL)
		panic("sysinfo_init: cannot register");
	dtrace_provider_attr_set(p, &sysinfo_attr);
	si_xcalls = dtrace_probe_create(p, "kernel", "xcall", "xcalls", 0, NULL);
}
