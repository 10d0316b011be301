/*
 * dtc_list.c - dtrace -l and -lv: listing probes.
 *
 * -l prints a header and one line per probe: every probe, or, with probe
 * descriptions or a program (-n, -P, -m, -f, -i, -s), the probes each of
 * its descriptions matches, in order, each probe once.  A description that
 * matches nothing is not an error of the program (list mode compiles with
 * zdefs, as DTrace does) but is reported: "failed to match
 * prov:mod:func:name: No probe matches description", and makes the
 * command's status 1.
 *
 * -lv adds, under each probe, its stability (trace/stability.c): the
 * attributes of its description and of its arguments, as Name / Data /
 * Class triples, and its argument types ("None" when none is known: Sonde
 * has no CTF, so no provider types its arguments yet).
 *
 * The probes are collected first and described afterwards: the framework
 * lists under its lock and describes under it too.
 *
 * Context: the consumer's thread.
 *
 * Tests: tests/e2e/test_dtrace_listing.py
 */
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "console/dtrace/dtc.h"

#define LIST_MAX 65536               /* probes one listing can show */

struct list_ids {
	dtrace_id_t *ids;
	uint32_t n, cap;
};

static void list_collect(void *arg, dtrace_id_t id, const dtrace_probedesc_t *pd)
{
	struct list_ids *l = arg;

	(void)pd;
	for (uint32_t i = 0; i < l->n; i++)
		if (l->ids[i] == id)
			return;
	if (l->n < l->cap)
		l->ids[l->n++] = id;
}

static void list_attr(const char *title, const dtrace_attribute_t *a)
{
	dtc_out("\n\t%s\n", title);
	dtc_out("\t\tIdentifier Names: %s\n", dtrace_stability_name(a->dtat_name));
	dtc_out("\t\tData Semantics:   %s\n", dtrace_stability_name(a->dtat_data));
	dtc_out("\t\tDependency Class: %s\n", dtrace_class_name(a->dtat_class));
}

static void list_print(struct dtc *d, dtrace_id_t id)
{
	dtrace_probeinfo_t pi;

	if (dtrace_probe_info(id, &pi) != 0)
		return;
	const dtrace_probedesc_t *pd = &pi.dpi_desc;
	dtc_out("%5u %10s %17s %33s %s\n", id, pd->dpd_provider, pd->dpd_mod, pd->dpd_func,
	        pd->dpd_name);
	if (d->dc_verbose)
		dtc_list_info(&pi);
}

void dtc_list_info(const dtrace_probeinfo_t *pi)
{
	list_attr("Probe Description Attributes", &pi->dpi_attr);
	list_attr("Argument Attributes", &pi->dpi_arga);
	dtc_out("\n\tArgument Types\n");
	for (int i = 0; i < pi->dpi_argc; i++)
		dtc_out("\t\targs[%d]: %s\n", i, pi->dpi_argtypes[i]);
	if (pi->dpi_argc == 0)
		dtc_out("\t\tNone\n");
	dtc_out("\n");
}

/* list_desc: the probes one description matches, after those already listed; false if none. */
static bool list_desc(struct list_ids *l, const dt_probedesc *cpd)
{
	dtrace_probedesc_t pd = dtrace_desc_of(cpd);

	if (dtrace_probe_list(&pd, list_collect, l) > 0)
		return true;
	dtc_err("dtrace: failed to match %s:%s:%s:%s: No probe matches description\n",
	        pd.dpd_provider, pd.dpd_mod, pd.dpd_func, pd.dpd_name);
	return false;
}

int dtc_list(struct dtc *d)
{
	struct list_ids l = { kmalloc(LIST_MAX * sizeof(dtrace_id_t)), 0, LIST_MAX };
	int rc = 0;

	if (l.ids == NULL) {
		dtc_err("dtrace: not enough memory to list probes\n");
		return 1;
	}
	dtc_out("%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE", "FUNCTION", "NAME");
	if (d->dc_prog == NULL)
		dtrace_probe_list(NULL, list_collect, &l);
	for (uint32_t c = 0; d->dc_prog != NULL && c < d->dc_prog->dp_nclauses; c++) {
		const dt_clause *cl = &d->dc_prog->dp_clauses[c];
		for (uint32_t i = 0; i < cl->cl_nprobes; i++) {
			uint32_t before = l.n;
			if (!list_desc(&l, &cl->cl_probes[i]))
				rc = 1;
			for (uint32_t k = before; k < l.n; k++)
				list_print(d, l.ids[k]);
		}
	}
	for (uint32_t k = 0; d->dc_prog == NULL && k < l.n; k++)
		list_print(d, l.ids[k]);
	kfree(l.ids);
	return rc;
}
