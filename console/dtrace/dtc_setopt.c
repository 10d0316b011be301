/*
 * dtc_setopt.c - setopt() at run time, as DTrace's consumer applies it.
 *
 * setopt("name"[, "value"]) is carried out by the consumer when it reads
 * the record of the clause that ran it, so in order with the output around
 * it.  As in DTrace, only the options that may change while tracing runs
 * take effect (quiet, the aggregation sorting options, switchrate,
 * aggrate...); one that needs tracing set up again (bufsize, nspec...) or a
 * name no option has is reported like a fault, but is not one:
 *
 *   dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): couldn't
 *   set option "bogus" to "1": Invalid option name
 *
 * (followed by an empty line: DTrace's message ends in a newline of its
 * own).  setopt("name") sets the value "1", as DTrace does.  The name and
 * value are string constants (the compiler insists), read from the DIF of
 * the action's arguments.  The compile-time options (errtags, zdefs...) are
 * accepted and change nothing.
 *
 * Tests: tests/d/errs (setopt()), tests/d/options
 */
#include "kernel/klib.h"
#include "console/dtrace/dtc.h"

/* Options DTrace lets a running consumer change. */
static const char *const dynamic_opts[] = {
	"aggrate", "aggsortkey", "aggsortkeypos", "aggsortpos", "aggsortrev",
	"aggzoom", "flowindent", "quiet", "rawbytes", "stackindent", "switchrate", NULL,
};

/* Options DTrace knows but will not change while tracing is active. */
static const char *const runtime_opts[] = {
	"aggsize", "bufpolicy", "bufresize", "bufsize", "cleanrate", "cpu",
	"destructive", "dynvarsize", "grabanon", "jstackframes", "jstackstrsize",
	"nspec", "specsize", "stackframes", "statusrate", "strsize",
	"ustackframes", NULL,
};

/* Options of the compiler: setting them at run time does nothing. */
static const char *const compile_opts[] = {
	"aggpercpu", "amin", "argref", "core", "cpp", "cpphdrs", "cpppath",
	"ctypes", "debug", "define", "defaultargs", "droptags", "dtypes", "empty",
	"errtags", "evaltime", "incdir", "iregs", "kdefs", "knodefs", "late",
	"lazyload", "ldpath", "libdir", "linkmode", "linktype", "nolibs",
	"pgmax", "pspec", "stdc", "strip", "syslibdir", "tree", "tregs", "udefs",
	"undef", "unodefs", "verbose", "version", "zdefs", NULL,
};

static bool in_list(const char *const *list, const char *name)
{
	for (; *list != NULL; list++)
		if (strcmp(*list, name) == 0)
			return true;
	return false;
}

/* difo_string: the string constant a setopt() argument's DIF returns. */
static const char *difo_string(const dif_difo_t *p)
{
	for (uint32_t i = 0; p != NULL && i < p->dd_ninsns; i++) {
		dif_instr_t in = p->dd_insns[i];
		if (DIF_INSTR_OP(in) == DIF_OP_SETS && DIF_INSTR_INDEX(in) < p->dd_strlen)
			return p->dd_strtab + DIF_INSTR_INDEX(in);
	}
	return NULL;
}

/* setopt_apply: set one option now; NULL, or why it could not be set. */
static const char *setopt_apply(struct dtc *d, const char *name, const char *val)
{
	if (in_list(compile_opts, name))
		return NULL;
	if (in_list(runtime_opts, name))
		return "Operation illegal when tracing is active";
	if (!in_list(dynamic_opts, name))
		return "Invalid option name";
	if (dtc_opt_set(d, name, val) != DT_OPT_OK)
		return "Invalid value for specified option";
	return NULL;
}

void dtc_setopt(struct dtc *d, const dt_action *a, uint32_t epid)
{
	const char *name = a->ac_nargs > 0 ? difo_string(a->ac_args[0]) : NULL;
	const char *val = a->ac_nargs > 1 ? difo_string(a->ac_args[1]) : "1";

	if (name == NULL || val == NULL)
		return;
	const char *why = setopt_apply(d, name, val);
	if (why == NULL)
		return;
	const dtrace_epinfo_t *ei = &d->dc_epinfo[epid - 1];
	const dtrace_probedesc_t *pd = &ei->dei_desc;
	dtc_err("dtrace: error on enabled probe ID %u (ID %u: %s:%s:%s:%s): couldn't set option "
	        "\"%s\" to \"%s\": %s\n\n", epid, ei->dei_probe, pd->dpd_provider, pd->dpd_mod,
	        pd->dpd_func, pd->dpd_name, name, val, why);
}
