/*
 * prov_dtrace.c - the dtrace provider: BEGIN, END and ERROR.
 *
 * Registered first, so its probes are ids 1, 2 and 3 as in DTrace.  They
 * need no instrumentation: the framework fires BEGIN itself when a consumer
 * starts (dtrace_go), END when it stops (dtrace_stop), and ERROR when a
 * clause faults (probe.c).
 *
 * Tests: tests/d/begin-end, tests/d/faults (ERROR)
 */
#include "kernel/klib.h"
#include "trace/trace_impl.h"

dtrace_id_t dtrace_probeid_begin, dtrace_probeid_end, dtrace_probeid_error;

static const dtrace_pops_t dtrace_provider_ops = {
	.dtps_provide = NULL,
	.dtps_enable = NULL,
	.dtps_disable = NULL,
};

/* Stability: the dtrace provider's table in the Dynamic Tracing Guide. */
static const dtrace_pattr_t dtrace_attr = {
	.dtpa_provider = { DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON },
	.dtpa_mod = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_func = { DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	.dtpa_name = { DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON },
	.dtpa_args = { DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON },
};

void dtrace_init(void)
{
	dtrace_provider_t *p = dtrace_register("dtrace", &dtrace_provider_ops, NULL);

	if (p == NULL)
		panic("dtrace_init: cannot register the dtrace provider");
	dtrace_provider_attr_set(p, &dtrace_attr);
	dtrace_probeid_begin = dtrace_probe_create(p, "", "", "BEGIN", 0, NULL);
	dtrace_probeid_end = dtrace_probe_create(p, "", "", "END", 0, NULL);
	dtrace_probeid_error = dtrace_probe_create(p, "", "", "ERROR", 0, NULL);
	KASSERT(dtrace_probeid_begin == 1 && dtrace_probeid_end == 2 && dtrace_probeid_error == 3);
}
