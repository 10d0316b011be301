/*
 * dtc_stability.c - dtrace -v: the program stability report.
 *
 * With -v, dtrace(1M) says, for each description or script, the lowest
 * stability its program depends on (the Dynamic Tracing Guide, "Stability
 * Computations and Reports"), on standard output:
 *
 *   Stability attributes for description dtrace:::BEGIN:
 *
 *   	Minimum Probe Description Attributes     (its probe descriptions)
 *   		Identifier Names: Stable
 *   		...
 *   	Minimum Statement Attributes             (what its clauses use)
 *   		...
 *
 * A probe description's attributes are those of the parts it names
 * (dtrace_desc_info).  A statement is Stable/Stable/Common unless it
 * reads something less stable: curthread (Stable/Private/Common: its data
 * is the kernel's private structure) or args[] (the probe's argument
 * attributes).  When tracing, the report follows the "matched" notice and
 * ends with a blank line; with -e it is followed by each probe description
 * of each clause with its own attributes, as -lv prints a probe's.
 *
 * Context: the consumer's thread.
 *
 * Tests: tests/d/options (-v); tests/e2e/test_dtrace_listing.py
 */
#include "kernel/klib.h"
#include "console/dtrace/dtc.h"

static const dtrace_attribute_t attr_max = {
	DTRACE_STABILITY_STANDARD, DTRACE_STABILITY_STANDARD, DTRACE_CLASS_COMMON,
};
static const dtrace_attribute_t attr_stable = {
	DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON,
};
static const dtrace_attribute_t attr_curthread = {
	DTRACE_STABILITY_STABLE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_COMMON,
};

/* difo_uses: does dp read built-in scalar var (ldgs) or, array true, built-in array var (ldga)? */
static bool difo_uses(const dif_difo_t *dp, unsigned var, bool array)
{
	for (uint32_t i = 0; dp != NULL && i < dp->dd_ninsns; i++) {
		dif_instr_t in = dp->dd_insns[i];
		if (!array && DIF_INSTR_OP(in) == DIF_OP_LDGS && DIF_INSTR_INDEX(in) == var)
			return true;
		if (array && DIF_INSTR_OP(in) == DIF_OP_LDGA && DIF_INSTR_VAR8(in) == var)
			return true;
	}
	return false;
}

static bool clause_uses(const dt_clause *cl, unsigned var, bool array)
{
	if (difo_uses(cl->cl_pred, var, array))
		return true;
	for (uint32_t a = 0; a < cl->cl_nacts; a++)
		for (uint32_t k = 0; k < cl->cl_acts[a].ac_nargs; k++)
			if (difo_uses(cl->cl_acts[a].ac_args[k], var, array))
				return true;
	return false;
}

/* clause_attrs: lower *desc and *stmt by one clause's probe descriptions and statements. */
static void clause_attrs(const dt_clause *cl, dtrace_attribute_t *desc, dtrace_attribute_t *stmt)
{
	bool args = clause_uses(cl, DIF_VAR_ARGS, true);
	dtrace_probeinfo_t pi;

	*stmt = dtrace_attr_min(*stmt, attr_stable);
	if (clause_uses(cl, DIF_VAR_CURTHREAD, false))
		*stmt = dtrace_attr_min(*stmt, attr_curthread);
	for (uint32_t i = 0; i < cl->cl_nprobes; i++) {
		dtrace_probedesc_t pd = dtrace_desc_of(&cl->cl_probes[i]);
		dtrace_desc_info(&pd, &pi);
		*desc = dtrace_attr_min(*desc, pi.dpi_attr);
		if (args)
			*stmt = dtrace_attr_min(*stmt, pi.dpi_arga);
	}
}

static void attr_print(const char *title, const dtrace_attribute_t *a)
{
	dtc_out("\n\t%s\n", title);
	dtc_out("\t\tIdentifier Names: %s\n", dtrace_stability_name(a->dtat_name));
	dtc_out("\t\tData Semantics:   %s\n", dtrace_stability_name(a->dtat_data));
	dtc_out("\t\tDependency Class: %s\n", dtrace_class_name(a->dtat_class));
}

static bool in_desc(const struct dtc_desc *dd, const dt_clause *cl)
{
	return cl->cl_line >= dd->dd_line && cl->cl_line < dd->dd_endline;
}

/* descs_print: with -e, each clause's probe descriptions, each as -lv shows a probe. */
static void descs_print(struct dtc *d, const struct dtc_desc *dd)
{
	dtrace_probeinfo_t pi;

	for (uint32_t c = 0; c < d->dc_prog->dp_nclauses; c++) {
		const dt_clause *cl = &d->dc_prog->dp_clauses[c];
		for (uint32_t i = 0; in_desc(dd, cl) && i < cl->cl_nprobes; i++) {
			dtrace_probedesc_t pd = dtrace_desc_of(&cl->cl_probes[i]);
			dtrace_desc_info(&pd, &pi);
			dtc_out("\n%s:%s:%s:%s\n", pd.dpd_provider, pd.dpd_mod, pd.dpd_func, pd.dpd_name);
			dtc_list_info(&pi);
		}
	}
}

static void desc_report(struct dtc *d, const struct dtc_desc *dd, bool tracing)
{
	dtrace_attribute_t desc = attr_max, stmt = attr_max;
	char name[256];
	size_t k = 0;

	for (uint32_t c = 0; c < d->dc_prog->dp_nclauses; c++)
		if (in_desc(dd, &d->dc_prog->dp_clauses[c]))
			clause_attrs(&d->dc_prog->dp_clauses[c], &desc, &stmt);
	/* named as in the "matched" notice: a description up to its predicate or clause */
	while (dd->dd_text[k] && (dd->dd_kind == DTC_SCRIPT || !strchr("{/;", dd->dd_text[k])) &&
	       k + 1 < sizeof(name)) {
		name[k] = dd->dd_text[k];
		k++;
	}
	name[k] = 0;
	dtc_out("\nStability attributes for %s %s:\n",
	        dd->dd_kind == DTC_SCRIPT ? "script" : "description", name);
	attr_print("Minimum Probe Description Attributes", &desc);
	attr_print("Minimum Statement Attributes", &stmt);
	if (tracing)
		dtc_out("\n");
	else
		descs_print(d, dd);
}

void dtc_stability_report(struct dtc *d, bool tracing)
{
	for (int i = 0; i < d->dc_ndescs && d->dc_prog != NULL; i++)
		desc_report(d, &d->dc_descs[i], tracing);
}
