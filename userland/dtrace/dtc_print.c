/*
 * dtc_print.c - turning buffer records into DTrace's output.
 *
 * A record is [epid, size] then each action's data (trace/dtrace.h).  Not
 * quiet, each record starts a line with "%3d %6d %32s " (cpu, probe id,
 * function:name) and ends it with a newline; quiet, only what printf and
 * trace produce appears.  Faults arrive as error records and become
 * DTrace's "error on enabled probe" message on standard error.
 */
#include "kernel/console.h"
#include "kernel/klib.h"
#include "kernel/ksym.h"
#include "kernel/mem.h"
#include "userland/dtrace/dtc.h"
#include "userland/shell/shell.h"

static const char *const fault_names[] = {
	[1] = "invalid address", [2] = "invalid alignment", [3] = "illegal operation",
	[4] = "divide-by-zero", [5] = "out of scratch space", [6] = "invalid kernel access",
	[7] = "invalid user access", [8] = "tuple stack overflow", [9] = "bad stack",
};

/* ---- output ---- */

/*
 * While system()'s command line is being formatted, standard output goes to
 * this buffer instead of the console (cut at its size).
 */
static struct capture {
	char *cp_buf;
	size_t cp_size, cp_len;
} *capture;

static void capture_put(const char *s, size_t n)
{
	size_t room = capture->cp_size - 1 - capture->cp_len;

	if (n > room)
		n = room;
	memcpy(capture->cp_buf + capture->cp_len, s, n);
	capture->cp_len += n;
	capture->cp_buf[capture->cp_len] = 0;
}

static void out_write(bool err, const char *s, size_t n)
{
	if (err)
		console_err_write(s, n);
	else if (capture != NULL)
		capture_put(s, n);
	else
		console_write(s, n);
}

static void out_va(bool err, const char *fmt, va_list ap)
{
	char small[512];
	va_list copy;

	va_copy(copy, ap);
	int n = kvsnprintf(small, sizeof(small), fmt, copy);
	va_end(copy);
	char *buf = n < (int)sizeof(small) ? small : kmalloc((size_t)n + 1);
	if (buf == NULL)
		return;
	if (buf != small)
		kvsnprintf(buf, (size_t)n + 1, fmt, ap);
	out_write(err, buf, (size_t)n);
	if (buf != small)
		kfree(buf);
}

void dtc_out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	out_va(false, fmt, ap);
	va_end(ap);
}

void dtc_outn(const char *s, size_t n)
{
	out_write(false, s, n);
}

void dtc_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	out_va(true, fmt, ap);
	va_end(ap);
}

/* ---- symbols ---- */

void dtc_print_sym(uint64_t pc, bool with_offset, char *buf, size_t size)
{
	struct ksym s;

	if (!ksym_lookup_addr(pc, &s))
		ksnprintf(buf, size, "0x%lx", pc);
	else if (with_offset && pc != s.ks_addr)
		ksnprintf(buf, size, "kernel`%s+0x%lx", s.ks_name, pc - s.ks_addr);
	else
		ksnprintf(buf, size, "kernel`%s", s.ks_name);
}

uint64_t dtc_sym_normal(uint64_t pc, bool module)
{
	struct ksym s;

	if (!ksym_lookup_addr(pc, &s))
		return pc;                          /* in no symbol: printed in hex, kept apart */
	if (module)
		ksym_get(0, &s);                    /* one module, the kernel: its first symbol */
	return s.ks_addr;
}

/*
 * frame_sym: a stack frame's PC as symbol+offset.  A return address just
 * past a function's last byte (its last instruction was a call that never
 * returns, such as sched_start's call of the idle loop) lies in no symbol:
 * it belongs to the function that made the call, at offset its size.
 */
static void frame_sym(uint64_t pc, char *buf, size_t size)
{
	struct ksym s;

	if (!ksym_lookup_addr(pc, &s) && ksym_lookup_addr(pc - 1, &s) && pc == s.ks_addr + s.ks_size)
		ksnprintf(buf, size, "kernel`%s+0x%lx", s.ks_name, pc - s.ks_addr);
	else
		dtc_print_sym(pc, true, buf, size);
}

void dtc_print_stack(const uint64_t *pcs, uint32_t n)
{
	char sym[160];

	dtc_out("\n");
	for (uint32_t i = 0; i < n && pcs[i] != 0; i++) {
		frame_sym(pcs[i], sym, sizeof(sym));
		dtc_out("%14s%s\n", "", sym);
	}
}

/* print_bytes: DTrace's dump of raw bytes (tracemem(), unprintable strings). */
static void print_bytes(const uint8_t *p, uint64_t n)
{
	dtc_out("\n%11s", "");
	for (int i = 0; i < 16; i++)
		dtc_out("  %x", i);
	dtc_out("  0123456789abcdef\n");
	for (uint64_t off = 0; off < n; off += 16) {
		char text[17];
		int k = 0;
		dtc_out("%10lx:", off);
		for (uint64_t i = off; i < off + 16; i++) {
			if (i < n) {
				dtc_out(" %02x", p[i]);
				text[k++] = (p[i] >= 32 && p[i] < 127) ? (char)p[i] : '.';
			} else {
				dtc_out("   ");
			}
		}
		text[k] = 0;
		dtc_out("  %s\n", text);
	}
}

/*
 * is_text: would DTrace print these string-record bytes as a string?  Only
 * if something printable comes before the first NUL and nothing but NULs
 * after it; otherwise it dumps them as bytes.
 */
static bool is_text(const uint8_t *p, uint32_t n)
{
	uint32_t i = 0;

	for (; i < n && p[i] != 0; i++)
		if (!((p[i] >= 32 && p[i] < 127) || (p[i] >= 7 && p[i] <= 13)))
			return false;
	if (i == 0)
		return false;
	for (; i < n; i++)
		if (p[i] != 0)
			return false;
	return true;
}

/* ---- trace() ---- */

void dtc_print_int(int64_t v, uint32_t size, bool quiet)
{
	switch (size) {
	case 1: dtc_out(quiet ? "%u" : " %3u", (unsigned)(uint8_t)v); break;
	case 2: dtc_out(quiet ? "%u" : " %5u", (unsigned)(uint16_t)v); break;
	case 4: dtc_out(quiet ? "%d" : " %8d", (int)v); break;
	default: dtc_out(quiet ? "%lld" : " %16lld", (long long)v); break;
	}
}

static void print_trace(struct dtc *d, const dif_difo_t *dp, const uint8_t *data)
{
	int64_t v;

	if (dp->dd_rtype.dt_kind == DIF_TYPE_STRING) {
		if (is_text(data, d->ov.dov_strsize))
			dtc_out(d->quiet ? "%s" : "  %-33s", (const char *)data);
		else
			print_bytes(data, d->ov.dov_strsize);
		return;
	}
	memcpy(&v, data, 8);
	dtc_print_int(v, dp->dd_rtype.dt_size, d->quiet);
}

/* ---- printf() ---- */

/*
 * spec_build: a C conversion for one D conversion spec: its flags, width and
 * precision (stars replaced by their arguments), then len and conv.  D's
 * parser differs from C's in two ways that show: of the flags '-' and '0'
 * the later one wins, and a precision of 0 means no precision.
 */
static void spec_build(const char *spec, const int *star, int nstar, const char *len, char conv,
                       char *out, size_t size)
{
	const char *p = spec + 1;
	char flags[8] = { 0 };
	int nf = 0, si = 0, width = -1, prec = -1;
	char pad = 0;                               /* '-' or '0', whichever came last */

	for (; *p && strchr("-+ #0'", *p); p++) {
		if (*p == '-' || *p == '0')
			pad = *p;
		else if (*p != '\'' && nf < 4 && !strchr(flags, *p))
			flags[nf++] = *p;
	}
	if (*p == '*') {
		width = si < nstar ? star[si] : 0;
		si++;
		p++;
		if (width < 0) {
			pad = '-';
			width = -width;
		}
	}
	for (; *p >= '0' && *p <= '9'; p++)
		width = (width < 0 ? 0 : width) * 10 + (*p - '0');
	if (*p == '.') {
		p++;
		prec = 0;
		if (*p == '*') {
			prec = si < nstar ? star[si] : 0;
			p++;
		}
		for (; *p >= '0' && *p <= '9'; p++)
			prec = prec * 10 + (*p - '0');
	}
	int n = ksnprintf(out, size, "%%%s%s", flags, pad ? (char[2]){ pad, 0 } : "");
	if (width >= 0)
		n += ksnprintf(out + n, size - (size_t)n, "%d", width);
	if (prec > 0)
		n += ksnprintf(out + n, size - (size_t)n, ".%d", prec);
	ksnprintf(out + n, size - (size_t)n, "%s%c", len, conv);
}

static char conv_char(const char *spec)
{
	size_t n = strlen(spec);

	return n ? spec[n - 1] : 'd';
}

static bool has_hh(const char *spec)
{
	for (; *spec; spec++)
		if (spec[0] == 'h' && spec[1] == 'h')
			return true;
	return false;
}

/*
 * int_value: an argument as its own type prints: truncated to its size (or
 * the conversion's hh/h), sign-extended for %d/%i of a signed type,
 * zero-extended otherwise (so %x of (int)-1 is ffffffff, as in C).
 */
static int64_t int_value(const dif_difo_t *dp, const uint8_t *data, char conv, const char *spec)
{
	int64_t v;
	uint32_t size = dp->dd_rtype.dt_size ? dp->dd_rtype.dt_size : 8;
	bool sgn = (dp->dd_rtype.dt_flags & DIF_TF_SIGNED) && (conv == 'd' || conv == 'i');

	memcpy(&v, data, 8);
	if (has_hh(spec) || conv == 'c')
		size = 1;
	else if (strchr(spec, 'h'))
		size = MIN(size, 2u);
	switch (size) {
	case 1: return sgn ? (int8_t)v : (int64_t)(uint8_t)v;
	case 2: return sgn ? (int16_t)v : (int64_t)(uint16_t)v;
	case 4: return sgn ? (int32_t)v : (int64_t)(uint32_t)v;
	default: return v;
	}
}

static void print_conv(struct dtc *d, const dt_conv *cv, const dif_difo_t *dp, const uint8_t *data,
                       const int *star, int nstar)
{
	char spec[48], sym[160];
	char conv = conv_char(cv->cv_spec);
	int64_t v;

	(void)d;
	switch (cv->cv_kind) {
	case DT_CONV_SINT: case DT_CONV_UINT:
		v = int_value(dp, data, conv, cv->cv_spec);
		spec_build(cv->cv_spec, star, nstar, conv == 'c' ? "" : "ll", conv, spec, sizeof(spec));
		if (conv == 'c')
			dtc_out(spec, (int)v);
		else if ((conv == 'd' || conv == 'i') && (dp->dd_rtype.dt_flags & DIF_TF_SIGNED))
			dtc_out(spec, (long long)v);
		else if (conv == 'd' || conv == 'i') {         /* %d of an unsigned type */
			spec[strlen(spec) - 1] = 'u';
			dtc_out(spec, (unsigned long long)v);
		}
		else
			dtc_out(spec, (unsigned long long)v);
		break;
	case DT_CONV_STR:
		spec_build(cv->cv_spec, star, nstar, "", 's', spec, sizeof(spec));
		dtc_out(spec, dp->dd_rtype.dt_kind == DIF_TYPE_STRING ? (const char *)data : "");
		break;
	case DT_CONV_PTR: case DT_CONV_SYM:
		memcpy(&v, data, 8);
		if (conv == 'p') {                   /* DTrace's %p is %llx: no 0x */
			spec_build(cv->cv_spec, star, nstar, "ll", 'x', spec, sizeof(spec));
			dtc_out(spec, (unsigned long long)v);
			break;
		}
		dtc_print_sym((uint64_t)v, conv == 'a', sym, sizeof(sym));
		spec_build(cv->cv_spec, star, nstar, "", 's', spec, sizeof(spec));
		dtc_out(spec, conv == 'A' && strchr(sym, '`') ? strchr(sym, '`') + 1 : sym);
		break;
	case DT_CONV_K:
		dtc_print_stack((const uint64_t *)data, d->ov.dov_stackframes);
		break;
	case DT_CONV_PCT:
		dtc_out("%%");
		break;
	default:
		memcpy(&v, data, 8);
		dtc_out("%lld", (long long)v);
		break;
	}
}

/* span_len: length of the conversion starting at t ('%'), as the compiler parsed it. */
static size_t span_len(const char *t)
{
	size_t i = 1;

	if (t[1] == '%')
		return 2;
	while (t[i] && strchr("-+ #0'@", t[i]))
		i++;
	if (t[i] == '*')
		i++;
	while (t[i] >= '0' && t[i] <= '9')
		i++;
	if (t[i] == '.') {
		i++;
		if (t[i] == '*')
			i++;
		while (t[i] >= '0' && t[i] <= '9')
			i++;
	}
	while (t[i] && strchr("hlLzjtw", t[i]))
		i++;
	return t[i] ? i + 1 : i;
}

/*
 * dtc_fmt_next: print the format's literal text from *t up to its next
 * conversion and return that conversion (its text skipped), or NULL at the
 * end.  *ci counts the conversions used.  printf and printa walk formats so.
 */
const dt_conv *dtc_fmt_next(const dt_fmtdesc *fd, const char **t, uint32_t *ci)
{
	const char *pct = strchr(*t, '%');
	size_t lit = pct ? (size_t)(pct - *t) : strlen(*t);

	dtc_outn(*t, lit);
	*t += lit;
	if (**t == 0 || *ci >= fd->fd_nconvs)
		return NULL;
	*t += span_len(*t);
	return &fd->fd_convs[(*ci)++];
}

/*
 * print_printf: walk the format's text; each conversion takes its star
 * arguments and its value from the record, in order.
 */
static void print_printf(struct dtc *d, const dt_action *a, const uint8_t *data)
{
	const dt_fmtdesc *fd = &d->prog->dp_formats[a->ac_fmt];
	const char *t = fd->fd_text;
	uint32_t ci = 0, ai = 0, strsize = d->ov.dov_strsize;
	const dt_conv *cv;

	while ((cv = dtc_fmt_next(fd, &t, &ci)) != NULL) {
		int star[2], nstar = 0;
		for (int k = 0; k < cv->cv_star_width + cv->cv_star_prec && ai < a->ac_nargs; k++) {
			int64_t w;
			memcpy(&w, data, 8);
			star[nstar++] = (int)w;
			data += dtrace_arg_size(a->ac_args[ai++], strsize);
		}
		if (cv->cv_kind == DT_CONV_PCT || ai >= a->ac_nargs) {
			print_conv(d, cv, NULL, NULL, star, nstar);
			continue;
		}
		print_conv(d, cv, a->ac_args[ai], data, star, nstar);
		data += dtrace_arg_size(a->ac_args[ai++], strsize);
	}
}

/*
 * print_system: system(fmt, ...) runs in the consumer, never in probe
 * context: format the record as printf would, then run the result as a
 * shell command line (its output goes to the console in order with ours).
 */
static void print_system(struct dtc *d, const dt_action *a, const uint8_t *data)
{
	char line[512];
	struct capture cp = { line, sizeof(line), 0 };

	line[0] = 0;
	capture = &cp;
	print_printf(d, a, data);
	capture = NULL;
	shell_run_line(line);
}

/* ---- records ---- */

static void print_error(struct dtc *d, const dtrace_errrec_t *r)
{
	dtrace_epinfo_t *ei = r->der_epid >= 1 && r->der_epid <= d->nepids ? &d->epinfo[r->der_epid - 1] : NULL;
	const dtrace_probedesc_t *pd = ei ? &ei->dei_desc : NULL;
	const char *fault = r->der_fault < ARRAY_SIZE(fault_names) && fault_names[r->der_fault] ?
	                    fault_names[r->der_fault] : "unknown fault";
	char where[32], addr[32] = "";

	if (r->der_action == 0)
		kstrlcpy(where, "predicate", sizeof(where));
	else
		ksnprintf(where, sizeof(where), "action #%u", r->der_action);
	if (r->der_fault == 1 || r->der_fault == 2 || r->der_fault == 9)
		ksnprintf(addr, sizeof(addr), " (0x%lx)", r->der_addr);
	char off[32] = "";
	if (r->der_pc != UINT32_MAX)                /* a fault outside DIF (copying a string) has none */
		ksnprintf(off, sizeof(off), " at DIF offset %u", r->der_pc);
	dtc_err("dtrace: error on enabled probe ID %u (ID %u: %s:%s:%s:%s): %s%s in %s%s\n",
	        r->der_epid, ei ? ei->dei_probe : 0, pd ? pd->dpd_provider : "?", pd ? pd->dpd_mod : "",
	        pd ? pd->dpd_func : "", pd ? pd->dpd_name : "", fault, addr, where, off);
}

static void print_header(struct dtc *d)
{
	if (d->quiet || d->header_done)
		return;
	d->header_done = true;
	dtc_out("%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
}

static void print_action(struct dtc *d, const dt_action *a, const uint8_t *data)
{
	int64_t v;
	char sym[160];

	memcpy(&v, data, 8);
	switch (a->ac_kind) {
	case DT_ACT_TRACE: print_trace(d, a->ac_args[0], data); break;
	case DT_ACT_PRINTF: print_printf(d, a, data); break;
	case DT_ACT_SYSTEM: print_system(d, a, data); break;
	case DT_ACT_STACK: dtc_print_stack((const uint64_t *)data, (uint32_t)(a->ac_arg ? a->ac_arg : d->ov.dov_stackframes)); break;
	case DT_ACT_TRACEMEM: print_bytes(data, a->ac_arg); break;
	case DT_ACT_SYM:
		dtc_print_sym((uint64_t)v, false, sym, sizeof(sym));
		dtc_out(d->quiet ? "%s" : "  %-50s", sym);
		break;
	case DT_ACT_MOD:
		dtc_out(d->quiet ? "%s" : "  %-50s", ksym_lookup_addr((uint64_t)v, &(struct ksym){ 0 }) ? "kernel" : "");
		break;
	case DT_ACT_PRINTA: dtc_printa(d, a); break;
	case DT_ACT_CLEAR: case DT_ACT_TRUNC: case DT_ACT_NORMALIZE: case DT_ACT_DENORMALIZE:
		dtc_agg_apply(d, a, v);
		break;
	default:
		break;
	}
}

static void print_record(struct dtc *d, int cpu, const dtrace_rechdr_t *h)
{
	dtrace_epinfo_t *ei = &d->epinfo[h->dtrh_epid - 1];
	const dt_clause *cl = &d->prog->dp_clauses[ei->dei_clause];
	const uint8_t *data = (const uint8_t *)(h + 1);
	char fn[DTRACE_FUNCNAMELEN + DTRACE_NAMELEN + 2];

	print_header(d);
	if (!d->quiet) {
		ksnprintf(fn, sizeof(fn), "%s:%s", ei->dei_desc.dpd_func, ei->dei_desc.dpd_name);
		dtc_out("%3d %6u %32s ", cpu, ei->dei_probe, fn);
	}
	for (uint32_t i = 0; i < cl->cl_nacts; i++) {
		const dt_action *a = &cl->cl_acts[i];
		print_action(d, a, data);
		data += dtrace_action_size(a, d->ov.dov_strsize, d->ov.dov_stackframes);
	}
	if (!d->quiet)
		dtc_out("\n");
}

void dtc_records(struct dtc *d, int cpu, const uint8_t *buf, long len)
{
	uint32_t n = 0;

	for (long off = 0; off + (long)sizeof(dtrace_rechdr_t) <= len;) {
		if ((++n & 63) == 0 && !dtc_poll(d))
			return;                      /* a second Ctrl-C: the rest goes unprinted */
		const dtrace_rechdr_t *h = (const dtrace_rechdr_t *)(buf + off);
		if (h->dtrh_size < sizeof(*h) || off + h->dtrh_size > len)
			break;                       /* malformed: stop rather than guess */
		if (h->dtrh_epid == DTRACE_EPID_ERROR)
			print_error(d, (const dtrace_errrec_t *)h);
		else if (h->dtrh_epid >= 1 && h->dtrh_epid <= d->nepids)
			print_record(d, cpu, h);
		off += h->dtrh_size;
	}
}

/* report_count: "N what[s]" and then suffix, for what was lost since the last report. */
static void report_count(struct dtc *d, const char *tag, uint64_t now, uint64_t before,
                         const char *what, const char *suffix)
{
	uint64_t n = now - before;

	if (n == 0)
		return;
	char prefix[48] = "";
	if (d->droptags)
		ksnprintf(prefix, sizeof(prefix), "[%s] ", tag);
	dtc_err("dtrace: %s%lu %s%s%s\n", prefix, n, what, n == 1 ? "" : "s", suffix);
}

void dtc_report_drops(struct dtc *d)
{
	dtrace_status_t st;
	char on[24];

	dtrace_status_get(d->state, &st);
	for (int cpu = 0; cpu < dtrace_ncpus() && cpu < 8; cpu++) {
		ksnprintf(on, sizeof(on), " on CPU %d", cpu);
		report_count(d, "DTRACEDROP_PRINCIPAL", st.dst_drops[cpu], d->last.dst_drops[cpu], "drop", on);
		report_count(d, "DTRACEDROP_AGGREGATION", st.dst_aggdrops[cpu], d->last.dst_aggdrops[cpu],
		             "aggregation drop", on);
	}
	report_count(d, "DTRACEDROP_DYNAMIC", st.dst_dyndrops, d->last.dst_dyndrops,
	             "dynamic variable drop", "");
	report_count(d, "DTRACEDROP_DYNRINSE", st.dst_dynrinse, d->last.dst_dynrinse,
	             "dynamic variable drop", " with non-empty rinsing list");
	report_count(d, "DTRACEDROP_DYNDIRTY", st.dst_dyndirty, d->last.dst_dyndirty,
	             "dynamic variable drop", " with non-empty dirty list");
	report_count(d, "DTRACEDROP_SPEC", st.dst_specdrops, d->last.dst_specdrops,
	             "speculative drop", "");
	report_count(d, "DTRACEDROP_SPECUNAVAIL", st.dst_specunavail, d->last.dst_specunavail,
	             "failed speculation", " (no speculative buffer available)");
	report_count(d, "DTRACEDROP_SPECBUSY", st.dst_specbusy, d->last.dst_specbusy,
	             "failed speculation", " (available buffer(s) still busy)");
	report_count(d, "DTRACEDROP_DBLERROR", st.dst_dblerrors, d->last.dst_dblerrors,
	             "error", " in ERROR probe enabling");
	d->last = st;
}

/*
 * size_print: a lowered size as dtrace(1M) prints it: in the largest unit
 * not above it (k, m, g, t) when it is a whole number of those ("32m"),
 * else in bytes ("61035152 bytes").
 */
static void size_print(char *buf, size_t len, uint64_t v)
{
	static const char units[] = " kmgtpe";
	int j = 0;

	while (j < 6 && (v >> (10 * (j + 1))) != 0)
		j++;
	if (j > 0 && (v & ((1UL << (10 * j)) - 1)) == 0)
		ksnprintf(buf, len, "%lu%c", v >> (10 * j), units[j]);
	else
		ksnprintf(buf, len, "%lu bytes", v);
}

void dtc_report_sizes(struct dtc *d)
{
	dtrace_optvals_t got;
	struct { const char *name; uint64_t *want; const uint64_t *have; } sizes[] = {
		{ "buffer size", &d->ov.dov_bufsize, &got.dov_bufsize },
		{ "aggregation size", &d->ov.dov_aggsize, &got.dov_aggsize },
		{ "speculation size", &d->ov.dov_specsize, &got.dov_specsize },
		{ "dynamic variable size", &d->ov.dov_dynvarsize, &got.dov_dynvarsize },
	};
	char v[32];

	dtrace_opts_get(d->state, &got);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		/* raised (DTrace's minimums), or only rounded to 8 bytes: no notice */
		if (*sizes[i].have != 0 && *sizes[i].have + 8 <= *sizes[i].want) {
			size_print(v, sizeof(v), *sizes[i].have);
			dtc_err("dtrace: %s lowered to %s\n", sizes[i].name, v);
		}
		*sizes[i].want = *sizes[i].have;
	}
}
