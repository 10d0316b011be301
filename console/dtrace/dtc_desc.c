/*
 * dtc_desc.c - probe-description arguments (-n, -P, -m, -f, -i) into D.
 *
 * dtrace(1M): each of these options takes a probe description, or a
 * comma-separated list of them, optionally followed by a predicate and an
 * action, as one argument:  -f 'kmalloc{ @ = count(); }'.  The option
 * says which field a partial description fills, counting from the right
 * of provider:module:function:name:
 *
 *   -P X      X:::          (a provider; at most one field)
 *   -m X      :X::   P:X::  (a module)
 *   -f X      ::X:   ...    (a function)
 *   -n X, -i  :::X   ...    (a name)
 *
 * A description that is a number is a probe id, allowed only where names
 * are (-n, -i), and replaced here by the probe's full name.  What follows
 * the description list is left to the compiler; an argument with no
 * action gets " {}" (the default action).  A description with more fields
 * than its option allows, or followed by anything but a predicate or an
 * action, is rejected with DTrace's message.  Thread context.
 *
 * Tests: tests/d/cmdline, tests/d/probes; tests/e2e/test_cmdline.py
 */
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "console/dtrace/dtc.h"

/* How many fields each kind fills from the left: its position (1..4). */
static int desc_position(enum dtc_desc_kind k)
{
	switch (k) {
	case DTC_PROVIDER: return 1;
	case DTC_MODULE: return 2;
	case DTC_FUNCTION: return 3;
	default: return 4;
	}
}

static const char *desc_plural(enum dtc_desc_kind k)
{
	static const char *const names[] = { "providers", "modules", "functions", "names" };

	return names[desc_position(k) - 1];
}

/* A character of a probe description: names, globs, macros ($1) and the separator. */
static bool desc_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c != 0 && strchr("_-.:*?[]!\\$`~+", c) != NULL);
}

static bool all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0;
}

static void id_found(void *arg, dtrace_id_t id, const dtrace_probedesc_t *pd)
{
	(void)id;
	*(dtrace_probedesc_t *)arg = *pd;
}

/* desc_id: a probe id into "prov:mod:func:name" at out; false after DTrace's error. */
static bool desc_id(const struct dtc_desc *dd, const char *s, size_t n, char *out, size_t cap)
{
	char num[24];
	uint64_t id = 0;
	dtrace_probedesc_t pd = { .dpd_id = 0 };

	ksnprintf(num, sizeof(num), "%.*s", (int)MIN(n, 20), s);
	if (n > 20 || !kstrtou64(num, &id)) {   /* not even a 64-bit integer: the lexer's error */
		dtc_err("dtrace: invalid probe specifier %s: constant %.*s results in integer "
		        "overflow\n", dd->dd_text, (int)n, s);
		return false;
	}
	if (id > UINT32_MAX) {
		dtc_err("dtrace: invalid probe specifier %s: identifier %s exceeds maximum probe id\n",
		        dd->dd_text, num);
		return false;
	}
	if (desc_position(dd->dd_kind) != 4) {
		dtc_err("dtrace: invalid probe specifier %s: probe identifier %s not permitted when "
		        "specifying %s\n", dd->dd_text, num, desc_plural(dd->dd_kind));
		return false;
	}
	pd.dpd_id = (dtrace_id_t)id;
	if (id == 0 || dtrace_probe_list(&pd, id_found, &pd) == 0) {
		dtc_err("dtrace: invalid probe specifier %s: invalid probe identifier %s: "
		        "No such process\n", dd->dd_text, num);
		return false;
	}
	ksnprintf(out, cap, "%s:%s:%s:%s", pd.dpd_provider, pd.dpd_mod, pd.dpd_func, pd.dpd_name);
	return true;
}

/* desc_fill: one description s[0..n) filled out to four fields at out; false after an error. */
static bool desc_fill(const struct dtc_desc *dd, const char *s, size_t n, char *out, size_t cap)
{
	int pos = desc_position(dd->dd_kind), fields = 1;

	if (all_digits(s, n))
		return desc_id(dd, s, n, out, cap);
	for (size_t i = 0; i < n; i++)
		fields += s[i] == ':';
	if (fields > pos) {
		dtc_err("dtrace: invalid probe specifier %s: invalid probe description \"%.*s\": "
		        "Overspecified probe description\n", dd->dd_text, (int)n, s);
		return false;
	}
	ksnprintf(out, cap, "%.*s%.*s%.*s", pos - fields, ":::", (int)n, s, 4 - pos, ":::");
	return true;
}

/* desc_list: the description list at the start of t, each filled out, into out; the rest at *rest. */
static bool desc_list(const struct dtc_desc *dd, const char *t, char *out, size_t cap,
                      const char **rest)
{
	size_t k = 0;

	out[0] = 0;
	for (;;) {
		while (*t == ' ' || *t == '\t' || *t == '\n')
			t++;
		const char *s = t;
		while (desc_char(*t))
			t++;
		if (t == s)
			break;                       /* no description: the compiler says why */
		if (!desc_fill(dd, s, (size_t)(t - s), out + k, cap - k))
			return false;
		k = strlen(out);
		while (*t == ' ' || *t == '\t' || *t == '\n')
			t++;
		if (*t != ',' || k + 2 >= cap)
			break;
		out[k++] = *t++;
		out[k] = 0;
	}
	if (k > 0 && *t != 0 && *t != '/' && *t != '{') {
		char near[32];
		size_t m = 0;
		while (t[m] && t[m] != ' ' && t[m] != '\t' && m + 1 < sizeof(near)) {
			near[m] = t[m];
			m++;
		}
		near[m] = 0;
		dtc_err("dtrace: invalid probe specifier %s: syntax error near \"%s\"\n", dd->dd_text, near);
		return false;
	}
	*rest = t;
	return true;
}

int dtc_desc_source(struct dtc_desc *dd)
{
	size_t cap = strlen(dd->dd_text) * 2 + 256;
	char *descs = kmalloc(cap);
	const char *rest = dd->dd_text;

	if (descs == NULL) {
		dtc_err("dtrace: not enough memory to compile\n");
		return 1;
	}
	if (!desc_list(dd, dd->dd_text, descs, cap, &rest)) {
		kfree(descs);
		return 1;
	}
	size_t total = strlen(descs) + strlen(rest) + 8;
	char *src = kmalloc(total);
	if (src == NULL) {
		kfree(descs);
		dtc_err("dtrace: not enough memory to compile\n");
		return 1;
	}
	int n = ksnprintf(src, total, "%s%s%s", descs, descs[0] && rest[0] ? " " : "", rest);
	if (strchr(rest, '{') == NULL)
		n += ksnprintf(src + n, total - (size_t)n, " {}");
	kfree(descs);
	dd->dd_src = src;
	dd->dd_len = (uint32_t)n;
	return -1;
}
