/*
 * dtc_opt.c - the dtrace command's options: -x name[=value], the flags
 * that are aliases of options (-b, -F, -q, -w, -Z, -a), and `#pragma D
 * option`, all through one setter.
 *
 * The names, kinds and value syntax come from the D compiler's table
 * (dlang/dt_options.c), so -x and #pragma accept exactly the same options
 * and values; this file gives each value its meaning in the consumer's
 * state (struct dtc and the framework's dtrace_optvals_t).  Options that
 * DTrace has but that mean nothing here (a preprocessor's include path, a
 * linker mode, jstack sizes) are accepted and ignored, as DTrace accepts
 * options a program does not use.
 *
 * Errors are DTrace's: "failed to set -x NAME: Invalid option name" (or
 * "Invalid value for specified option"), exit status 1.  Thread context.
 *
 * Tests: tests/d/options; tests/d/cmdline
 */
#include "kernel/klib.h"
#include "console/dtrace/dtc.h"

/* Options whose value is a count the framework bounds: 1..max. */
static const struct { const char *name; size_t off; uint32_t max; } dtc_counts[] = {
	{ "nspec", offsetof(dtrace_optvals_t, dov_nspec), 65536 },
	{ "stackframes", offsetof(dtrace_optvals_t, dov_stackframes), 65536 },
	{ "ustackframes", offsetof(dtrace_optvals_t, dov_ustackframes), 65536 },
};

/* Options whose value is a size in bytes, more than 0. */
static const struct { const char *name; size_t off; } dtc_sizes[] = {
	{ "bufsize", offsetof(dtrace_optvals_t, dov_bufsize) },
	{ "aggsize", offsetof(dtrace_optvals_t, dov_aggsize) },
	{ "dynvarsize", offsetof(dtrace_optvals_t, dov_dynvarsize) },
	{ "specsize", offsetof(dtrace_optvals_t, dov_specsize) },
};

/* set_flag: the boolean options; false if name is not one. */
static bool set_flag(struct dtc *d, const dt_optval *v)
{
	static const struct { const char *name; size_t off; } flags[] = {
		{ "quiet", offsetof(struct dtc, dc_quiet) },
		{ "flowindent", offsetof(struct dtc, dc_flowindent) },
		{ "rawbytes", offsetof(struct dtc, dc_rawbytes) },
		{ "aggpercpu", offsetof(struct dtc, dc_aggpercpu) },
		{ "aggzoom", offsetof(struct dtc, dc_aggzoom) },
		{ "grabanon", offsetof(struct dtc, dc_grabanon) },
		{ "errtags", offsetof(struct dtc, dc_errtags) },
		{ "droptags", offsetof(struct dtc, dc_droptags) },
		{ "zdefs", offsetof(struct dtc, dc_zdefs) },
		{ "defaultargs", offsetof(struct dtc, dc_defargs) },
		{ "argref", offsetof(struct dtc, dc_argref) },
	};

	if (strcmp(v->ov_name, "destructive") == 0) {
		d->dc_destructive = d->dc_ov.dov_destructive = v->ov_set;
		return true;
	}
	if (strcmp(v->ov_name, "aggsortkey") == 0 || strcmp(v->ov_name, "aggsortrev") == 0) {
		*(v->ov_name[7] == 'k' ? &d->dc_sortkey : &d->dc_sortrev) = v->ov_set;
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(flags); i++) {
		if (strcmp(v->ov_name, flags[i].name) == 0) {
			*(bool *)((char *)d + flags[i].off) = v->ov_set;
			return true;
		}
	}
	return false;
}

/* set_number: sizes, counts, rates and positions; false if the value is out of range. */
static bool set_number(struct dtc *d, const dt_optval *v)
{
	const char *n = v->ov_name;
	uint64_t x = v->ov_num;

	for (size_t i = 0; i < ARRAY_SIZE(dtc_sizes); i++)
		if (strcmp(n, dtc_sizes[i].name) == 0) {
			*(uint64_t *)((char *)&d->dc_ov + dtc_sizes[i].off) = x;
			return true;             /* 0: no buffer (the framework drops all) */
		}
	for (size_t i = 0; i < ARRAY_SIZE(dtc_counts); i++)
		if (strcmp(n, dtc_counts[i].name) == 0) {
			*(uint32_t *)((char *)&d->dc_ov + dtc_counts[i].off) = (uint32_t)x;
			return x > 0 && x <= dtc_counts[i].max;
		}
	if (strcmp(n, "jit") == 0) {             /* Sonde's: 0 keeps DIF on the interpreter */
		d->dc_ov.dov_jit = x != 0;
		return true;
	}
	if (strcmp(n, "strsize") == 0) {
		d->dc_ov.dov_strsize = (uint32_t)x;
		return x >= 2 && x <= 65536;
	}
	if (strcmp(n, "switchrate") == 0)
		d->dc_switchrate_ns = x;
	else if (strcmp(n, "aggrate") == 0)
		d->dc_aggrate_ns = x;
	else if (strcmp(n, "cleanrate") == 0)
		d->dc_ov.dov_cleanrate_ns = x;
	else if (strcmp(n, "aggsortpos") == 0)
		d->dc_sortpos = (int)MIN(x, 1000);
	else if (strcmp(n, "aggsortkeypos") == 0)
		d->dc_sortkeypos = (int)MIN(x, 1000);
	else if (strcmp(n, "cpu") == 0)
		d->dc_ov.dov_cpu = (int)MIN(x, 1000000);
	else if (strcmp(n, "stackindent") == 0)
		d->dc_stackindent = (int)MIN(x, 200);
	return true;                             /* the others: accepted, no meaning here */
}

/* dtc_opt_set: one option; 0, or DTrace's reason it cannot be set. */
dt_opterr dtc_opt_set(struct dtc *d, const char *name, const char *val)
{
	dt_optval v;
	dt_opterr e = dt_option_parse(name, val, &v);

	if (e != DT_OPT_OK)
		return e;
	if (v.ov_kind == DT_OPTK_VERSION && d->dc_version != 0 && v.ov_num > d->dc_version)
		return DT_OPT_VERSREDUCED;       /* as libdtrace: a binding only goes down */
	if (v.ov_kind == DT_OPTK_FLAG || v.ov_kind == DT_OPTK_CFLAG) {
		if (set_flag(d, &v))
			return DT_OPT_OK;
	}
	if (strcmp(name, "bufresize") == 0) {    /* auto, manual: as the word list has them */
		d->dc_ov.dov_bufresize = v.ov_num == 0 ? DTRACE_BUFRESIZE_AUTO : DTRACE_BUFRESIZE_MANUAL;
		return DT_OPT_OK;
	}
	if (strcmp(name, "bufpolicy") == 0) {
		static const int policy[] = { DTRACE_BUFPOLICY_SWITCH, DTRACE_BUFPOLICY_FILL,
		                              DTRACE_BUFPOLICY_RING };
		d->dc_ov.dov_bufpolicy = policy[v.ov_num];
		return DT_OPT_OK;
	}
	if (strcmp(name, "cpp") == 0 || strcmp(name, "cpphdrs") == 0) {   /* -C, -H */
		*(name[3] == 0 ? &d->dc_cpp : &d->dc_cpp_hdrs) = v.ov_set;
		return DT_OPT_OK;
	}
	if (strcmp(name, "define") == 0 || strcmp(name, "undef") == 0 || strcmp(name, "incdir") == 0)
		return dtc_cpp_add(d, name[0] == 'd' ? 'D' : name[0] == 'u' ? 'U' : 'I', v.ov_text) ?
		       DT_OPT_OK : DT_OPT_BADVAL;
	if (strcmp(name, "oformat") == 0) {      /* none, text, json: dtc_json.c */
		d->dc_json = v.ov_num == 2;
		return DT_OPT_OK;
	}
	if (v.ov_kind == DT_OPTK_SIZE || v.ov_kind == DT_OPTK_TIME || v.ov_kind == DT_OPTK_SCALAR)
		return set_number(d, &v) ? DT_OPT_OK : DT_OPT_BADVAL;
	if (strcmp(name, "libdir") == 0)         /* the D library's directory (dtc_lib.c) */
		d->dc_libdir = v.ov_text;
	if (v.ov_kind == DT_OPTK_VERSION)        /* the compiler hides what is newer */
		d->dc_version = (uint32_t)v.ov_num;
	return DT_OPT_OK;
}

/* dtc_opt_x: -x name[=value] (or a flag's alias, what "-x" reads as in the message). */
bool dtc_opt_x(struct dtc *d, const char *flag, const char *name, const char *val)
{
	char buf[64];
	const char *n = name;
	const char *eq = val == NULL ? strchr(name, '=') : NULL;

	if (eq != NULL) {
		size_t len = MIN((size_t)(eq - name), sizeof(buf) - 1);
		memcpy(buf, name, len);
		buf[len] = 0;
		n = buf;
		val = eq + 1;
	}
	dt_opterr e = dtc_opt_set(d, n, val);
	if (e == DT_OPT_OK)
		return true;
	dtc_err("dtrace: failed to set %s %s: %s\n", flag, strcmp(flag, "-x") == 0 ? n : val,
	        dt_option_errmsg(e));
	return false;
}
