/*
 * dtc_print.c - turning buffer records into DTrace's output.
 *
 * A record is [epid, size] then each action's data (trace/dtrace.h).  Not
 * quiet, each record starts a line with "%3d %6d %32s " (cpu, probe id,
 * function:name) and ends it with a newline; quiet, only what printf and
 * trace produce appears.  trace() prints by the type the compiler gave its
 * argument, as libdtrace does: integers by size and sign (" %10d",
 * " %20llu" ...), strings as strings; arrays and structs by their bytes
 * (the Guide's default format): text if printable, else a byte dump.  printf's conversions are printed by
 * dtc_format.c.  Faults arrive as error records and become DTrace's
 * "error on enabled probe" message on standard error.
 *
 * Tests: tests/d/trace, tests/d/output, tests/d/faults, tests/d/drops;
 *        tests/e2e/test_dtrace_output.py
 */
#include "kernel/console.h"
#include "kernel/file.h"
#include "kernel/klib.h"
#include "kernel/ksym.h"
#include "kernel/mem.h"
#include "console/dtrace/dtc.h"
#include "console/shell/shell.h"

/* ---- output ---- */

/*
 * While system()'s command line or freopen()'s path is being formatted, the
 * consumer's standard output is this buffer (cut at its size): a file of
 * its own given to the thread (kernel/kstdio.c), so a consumer on another
 * thread printing meanwhile is not caught in it.
 */
struct capture {
	char *cp_buf;
	size_t cp_size, cp_len;
};

static int64_t capture_write(struct file *f, const void *s, size_t n)
{
	struct capture *cp = f->f_priv;
	size_t room = cp->cp_size - 1 - cp->cp_len;

	memcpy(cp->cp_buf + cp->cp_len, s, MIN(n, room));
	cp->cp_len += MIN(n, room);
	cp->cp_buf[cp->cp_len] = 0;
	return (int64_t)n;                   /* what does not fit is dropped, not an error */
}

static const struct file_ops capture_ops = { .fo_write = capture_write };

/* capture_begin: standard output into cp's buffer until capture_end(the returned file). */
static struct file *capture_begin(struct file *f, struct capture *cp)
{
	*f = (struct file){ .f_ops = &capture_ops, .f_refs = 1, .f_priv = cp };
	cp->cp_buf[0] = 0;
	return kstdio_set(f);
}

static void capture_end(struct file *outer)
{
	kstdio_set(outer);
}

static void out_write(bool err, const char *s, size_t n)
{
	if (err)
		console_err_write(s, n);
	else
		kstdout_write(s, n);                 /* the console, or a pipe, file or capture */
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

void dtc_frame_name(uint64_t pc, char *buf, size_t size)
{
	frame_sym(pc, buf, size);
}

void dtc_print_stack_fmt(const uint64_t *pcs, uint32_t n, int indent, const char *fmt)
{
	char sym[160];

	dtc_out("\n");
	for (uint32_t i = 0; i < n && pcs[i] != 0; i++) {
		frame_sym(pcs[i], sym, sizeof(sym));
		dtc_out("%*s", indent, "");
		dtc_out(fmt, sym);
		dtc_out("\n");
	}
}

void dtc_print_stack(struct dtc *d, const uint64_t *pcs, uint32_t n)
{
	dtc_print_stack_fmt(pcs, n, d->dc_stackindent, "%s");
}

/* dtc_print_bytes: DTrace's dump of raw bytes (tracemem(), structs, odd keys). */
void dtc_print_bytes(const uint8_t *p, uint64_t n)
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
 * dtc_tracemem_size: how many of a tracemem() record's bytes to show: its
 * size, or the dsize recorded after them when that is in 0..size (DTrace
 * ignores a dsize below 0 or above the size).
 */
uint64_t dtc_tracemem_size(const dt_action *a, const uint8_t *data)
{
	int64_t dsize;

	if (a->ac_nargs < 2)
		return a->ac_arg;
	memcpy(&dsize, data + ALIGN_UP(a->ac_arg, 8), 8);
	return dsize < 0 || (uint64_t)dsize > a->ac_arg ? a->ac_arg : (uint64_t)dsize;
}

static bool text_byte(uint8_t c)
{
	return (c >= 0x20 && c < 0x7f) || (c >= 7 && c <= 13);
}

/*
 * dtc_is_text: would DTrace print these bytes as a string?  Only if something
 * printable comes before the first NUL and nothing but NULs after it;
 * otherwise it dumps them as bytes.
 */
bool dtc_is_text(const uint8_t *p, uint32_t n)
{
	uint32_t i = 0;

	for (; i < n && p[i] != 0; i++)
		if (!text_byte(p[i]))
			return false;
	if (i == 0)
		return false;
	for (; i < n; i++)
		if (p[i] != 0)
			return false;
	return true;
}

/* print_chars: the n bytes at p (no NUL needed) as a string: "%s" if quiet, else "  %-*s". */
static void print_chars(const uint8_t *p, uint32_t n, bool quiet, int width)
{
	char small[264];
	char *s = n < sizeof(small) ? small : kmalloc(n + 1);

	if (s == NULL)
		return;
	memcpy(s, p, n);
	s[n] = 0;
	if (quiet)
		dtc_out("%s", s);
	else
		dtc_out("  %-*s", width, s);
	if (s != small)
		kfree(s);
}

void dtc_print_text(const uint8_t *p, uint32_t n, int width)
{
	uint32_t len = 0;

	if (!dtc_is_text(p, n)) {
		dtc_print_bytes(p, n);
		return;
	}
	while (len < n && p[len] != 0)
		len++;
	print_chars(p, len, false, width);
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

/*
 * trace_int: an integer as trace() prints it, by its type's size and sign
 * (libdtrace's widths: 3, 5, 10 and 19 columns signed, 20 unsigned).
 */
static void trace_int(int64_t v, uint32_t size, bool sgn, bool quiet)
{
	static const int sw[] = { 3, 5, 10, 19 }, uw[] = { 3, 5, 10, 20 };
	int k = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3;
	int w = sgn ? sw[k] : uw[k];

	long long sv = k == 0 ? (int8_t)v : k == 1 ? (int16_t)v : k == 2 ? (int32_t)v : v;
	unsigned long long uv = k == 0 ? (uint8_t)v : k == 1 ? (uint16_t)v : k == 2 ?
	                        (uint32_t)v : (uint64_t)v;

	if (quiet && sgn)
		dtc_out("%lld", sv);
	else if (quiet)
		dtc_out("%llu", uv);
	else if (sgn)
		dtc_out(" %*lld", w, sv);
	else
		dtc_out(" %*llu", w, uv);
}

/*
 * trace_blob: a struct, union or array, judged by its bytes as the Guide's
 * "trace() Default Format" says: printable characters (then only NULs)
 * print as a string, anything else as a dump.  So a struct that holds
 * text prints as text, and a char array holding binary, or nothing before
 * its first NUL, is dumped.
 */
static void trace_blob(struct dtc *d, const uint8_t *data, uint32_t size)
{
	uint32_t len = 0;

	if (!dtc_is_text(data, size)) {
		dtc_print_bytes(data, size);
		return;
	}
	while (len < size && data[len] != 0)
		len++;
	print_chars(data, len, d->dc_quiet, 33);
}

static void print_trace(struct dtc *d, const dt_action *a, const uint8_t *data)
{
	const dif_difo_t *dp = a->ac_args[0];
	int64_t v;

	if (d->dc_rawbytes) {                          /* the record as it is: its type's size */
		uint32_t n = dp->dd_rtype.dt_kind == DIF_TYPE_STRING ? d->dc_ov.dov_strsize :
		             dp->dd_rtype.dt_size ? dp->dd_rtype.dt_size : 8;
		uint8_t obj[8];
		if (dp->dd_rtype.dt_kind != DIF_TYPE_STRING && dp->dd_rtype.dt_kind != DIF_TYPE_BLOB &&
		    n < 8) {                            /* a scalar: the bytes of an object of its size */
			memcpy(&v, data, 8);
			dtc_scalar_bytes(obj, (uint64_t)v, n);
			data = obj;
		}
		dtc_print_bytes(data, n);
		return;
	}
	if (dp->dd_rtype.dt_kind == DIF_TYPE_STRING) {
		dtc_out(d->dc_quiet ? "%s" : "  %-33s", (const char *)data);
		return;
	}
	if (dp->dd_rtype.dt_kind == DIF_TYPE_BLOB) {
		trace_blob(d, data, dp->dd_rtype.dt_size);
		return;
	}
	memcpy(&v, data, 8);
	trace_int(v, dp->dd_rtype.dt_size, (dp->dd_rtype.dt_flags & DIF_TF_SIGNED) != 0, d->dc_quiet);
}

/* ---- printf() ---- */

/* value_of: one recorded argument as a conversion's value. */
static struct dtc_value value_of(const dif_difo_t *dp, const uint8_t *data)
{
	struct dtc_value v = { .dv_kind = DTC_VAL_INT, .dv_size = 8 };

	if (dp->dd_rtype.dt_kind == DIF_TYPE_STRING || dp->dd_rtype.dt_kind == DIF_TYPE_BLOB) {
		v.dv_kind = DTC_VAL_STR;
		v.dv_str = (const char *)data;
		v.dv_raw = data;                             /* a long double: 16 bytes */
		v.dv_size = dp->dd_rtype.dt_size;
		return v;
	}
	memcpy(&v.dv_int, data, 8);
	v.dv_raw = data;
	v.dv_size = dp->dd_rtype.dt_size ? dp->dd_rtype.dt_size : 8;
	v.dv_signed = (dp->dd_rtype.dt_flags & DIF_TF_SIGNED) != 0;
	return v;
}

/* dyn_value: a * width or precision argument: its value sign-extended, as an int. */
static int dyn_value(const dif_difo_t *dp, const uint8_t *data)
{
	int64_t v;

	memcpy(&v, data, 8);
	switch (dp->dd_rtype.dt_size) {
	case 1: return (int8_t)v;
	case 2: return (int16_t)v;
	default: return (int)v;
	}
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
	const dt_conv *cv = &fd->fd_convs[(*ci)++];
	size_t n = strlen(*t);
	*t += cv->cv_textlen < n ? cv->cv_textlen : n;
	return cv;
}

/*
 * print_printf: walk the format's text; each conversion takes its star
 * arguments (width, then precision) and its value from the record, in order.
 */
static void print_printf(struct dtc *d, const dt_action *a, const uint8_t *data)
{
	const dt_fmtdesc *fd = &d->dc_prog->dp_formats[a->ac_fmt];
	const char *t = fd->fd_text;
	uint32_t ci = 0, ai = 0, strsize = d->dc_ov.dov_strsize;
	const dt_conv *cv;

	while ((cv = dtc_fmt_next(fd, &t, &ci)) != NULL) {
		int width = cv->cv_width, prec = cv->cv_prec;
		if (cv->cv_kind == DT_CONV_PCT) {
			dtc_out("%%");
			continue;
		}
		for (int k = 0; k < cv->cv_star_width + cv->cv_star_prec && ai < a->ac_nargs; k++) {
			int w = dyn_value(a->ac_args[ai], data);
			if (k == 0 && cv->cv_star_width)
				width = w;
			else
				prec = w;
			data += dtrace_arg_size(a->ac_args[ai++], strsize);
		}
		if (ai >= a->ac_nargs)
			break;
		struct dtc_value v = value_of(a->ac_args[ai], data);
		char text[1024];
		if (a->ac_args[ai]->dd_rtype.dt_kind == DIF_TYPE_BLOB) {   /* char []: up to its size */
			uint32_t n = MIN(a->ac_args[ai]->dd_rtype.dt_size, (uint32_t)sizeof(text) - 1);
			memcpy(text, data, n);
			text[n] = 0;
			v.dv_str = text;
		}
		char uname[160];
		if (cv->cv_kind == DT_CONV_SYM && cv->cv_name[0] == 'A')   /* a user address */
			dtc_uaddr_value(d, &v, uname, sizeof(uname));
		if (cv->cv_kind == DT_CONV_K)
			v = (struct dtc_value){ .dv_kind = DTC_VAL_STACK, .dv_pcs = (const uint64_t *)data,
			                        .dv_npcs = dtrace_arg_size(a->ac_args[ai], strsize) / 8 };
		dtc_conv_print(cv, &v, width, prec);
		data += dtrace_arg_size(a->ac_args[ai++], strsize);
	}
}

/* print_capture: what printf would print for the record, into buf (cut at size). */
static void print_capture(struct dtc *d, const dt_action *a, const uint8_t *data, char *buf, size_t size)
{
	struct capture cp = { buf, size, 0 };
	struct file f, *outer = capture_begin(&f, &cp);

	print_printf(d, a, data);
	capture_end(outer);
}

/*
 * print_system: system(fmt, ...) runs in the consumer, never in probe
 * context: format the record as printf would, then run the result as a
 * shell command line, with dtrace's own standard output (dtc_ofile.c:
 * freopen()'s file, not -o's), in order with ours.
 */
static void print_system(struct dtc *d, const dt_action *a, const uint8_t *data)
{
	char line[512];

	line[0] = 0;
	print_capture(d, a, data, line, sizeof(line));
	struct file *ours = kstdio_set(dtc_ofile_system_out(d));
	shell_run_line(line);
	kstdio_set(ours);
}

/*
 * print_freopen: freopen(fmt, ...) names the file the consumer's output
 * goes to from now on (appended to); freopen("") brings it back
 * (dtc_ofile.c).
 */
static void print_freopen(struct dtc *d, const dt_action *a, const uint8_t *data)
{
	char path[256];

	path[0] = 0;
	print_capture(d, a, data, path, sizeof(path));
	dtc_ofile_freopen(d, path);
}

/*
 * print_ftruncate: ftruncate() empties the file standard output goes to
 * now (-o's, freopen()'s, or the shell's `>`) and writes on from its
 * start; on the console or a pipe, as on DTrace's terminal, there is
 * nothing to cut.
 */
static void print_ftruncate(void)
{
	struct file *f = kstdio_get();

	if (f != NULL && file_truncate(f, 0) == 0)
		f->f_off = 0;
}

/* ---- records ---- */

static void print_error(struct dtc *d, const dtrace_errrec_t *r)
{
	dtrace_epinfo_t *ei = r->der_epid >= 1 && r->der_epid <= d->dc_nepids ? &d->dc_epinfo[r->der_epid - 1] : NULL;
	const dtrace_probedesc_t *pd = ei ? &ei->dei_desc : NULL;
	const char *fault = dif_fault_message(r->der_fault);
	char where[32], addr[32] = "";

	if (r->der_action == 0)
		kstrlcpy(where, "predicate", sizeof(where));
	else
		ksnprintf(where, sizeof(where), "action #%u", r->der_action);
	if (fault == NULL)
		fault = dif_fault_message(DIF_FAULT_NONE);     /* "unknown fault", as dtrace(1M) */
	if (r->der_fault == DIF_FAULT_BADADDR || r->der_fault == DIF_FAULT_BADALIGN ||
	    r->der_fault == DIF_FAULT_BADSTACK)
		ksnprintf(addr, sizeof(addr), " (0x%lx)", r->der_addr);
	char off[32] = "";
	if (r->der_pc != UINT32_MAX)                /* a fault outside DIF (copying a string) has none */
		ksnprintf(off, sizeof(off), " at DIF offset %u", r->der_pc);
	if (d->dc_json)
		dtc_json_error(d, r, ei, fault, where);
	dtc_err("dtrace: error on enabled probe ID %u (ID %u: %s:%s:%s:%s): %s%s in %s%s\n",
	        r->der_epid, ei ? ei->dei_probe : 0, pd ? pd->dpd_provider : "?", pd ? pd->dpd_mod : "",
	        pd ? pd->dpd_func : "", pd ? pd->dpd_name : "", fault, addr, where, off);
}

static void print_header(struct dtc *d)
{
	if (d->dc_quiet || d->dc_header_done || d->dc_json)
		return;
	d->dc_header_done = true;
	if (d->dc_flowindent)
		dtc_out("%3s %-41s\n", "CPU", "FUNCTION");
	else
		dtc_out("%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
}

/* ---- flowindent (-F) ---- */

enum flow { FLOW_NONE, FLOW_ENTRY, FLOW_RETURN };

static bool name_is(const char *name, const char *what)
{
	size_t n = strlen(name), w = strlen(what);

	return strcmp(name, what) == 0 ||
	       (n > w && name[n - w - 1] == '-' && strcmp(name + n - w, what) == 0);
}

/* next_epid: the enabled probe of the record after the one at off, 0 if none. */
static uint32_t next_epid(const uint8_t *buf, long len, long off)
{
	const dtrace_rechdr_t *h = (const dtrace_rechdr_t *)(buf + off);

	off += h->dtrh_size;
	if (off + (long)sizeof(*h) > len)
		return 0;
	return ((const dtrace_rechdr_t *)(buf + off))->dtrh_epid;
}

/*
 * flow_of: as DTrace decides it: an entry (name "entry" or "*-entry")
 * indents and a return unindents, except that of several clauses of one
 * probe only the first entry and the last return count (the others print
 * as plain "| " lines).
 */
static enum flow flow_of(struct dtc *d, const dtrace_rechdr_t *h, uint32_t next)
{
	const dtrace_epinfo_t *ei = &d->dc_epinfo[h->dtrh_epid - 1];
	const char *name = ei->dei_desc.dpd_name;

	if (name_is(name, "entry")) {
		if (d->dc_last_epid != 0 && d->dc_last_epid != h->dtrh_epid &&
		    d->dc_epinfo[d->dc_last_epid - 1].dei_probe == ei->dei_probe)
			return FLOW_NONE;
		return FLOW_ENTRY;
	}
	if (name_is(name, "return")) {
		if (next >= 1 && next <= d->dc_nepids && next != h->dtrh_epid &&
		    d->dc_epinfo[next - 1].dei_probe == ei->dei_probe)
			return FLOW_NONE;
		return FLOW_RETURN;
	}
	return FLOW_NONE;
}

/* print_flow_prefix: "CPU  -> func" indented (or "| func:name"), as dtrace -F prints. */
static void print_flow_prefix(struct dtc *d, int cpu, const dtrace_rechdr_t *h, uint32_t next)
{
	const dtrace_epinfo_t *ei = &d->dc_epinfo[h->dtrh_epid - 1];
	bool sys = strcmp(ei->dei_desc.dpd_provider, "syscall") == 0;
	enum flow f = flow_of(d, h, next);
	char name[DTRACE_FUNCNAMELEN + DTRACE_NAMELEN + 8];

	if (f == FLOW_RETURN && d->dc_indent > 0)
		d->dc_indent -= 2;
	if (f == FLOW_NONE)
		ksnprintf(name, sizeof(name), "| %s:%s", ei->dei_desc.dpd_func, ei->dei_desc.dpd_name);
	else
		ksnprintf(name, sizeof(name), "%s%s", f == FLOW_ENTRY ? (sys ? " => " : " -> ") :
		          (sys ? " <= " : " <- "), ei->dei_desc.dpd_func);
	dtc_out("%3d %*s%-*s ", cpu, d->dc_indent, "", 41 - d->dc_indent > 0 ? 41 - d->dc_indent : 0, name);
	if (f == FLOW_ENTRY)
		d->dc_indent += 2;
	d->dc_last_epid = h->dtrh_epid;
}

static void print_action(struct dtc *d, const dt_action *a, const uint8_t *data)
{
	int64_t v;
	char sym[160];

	memcpy(&v, data, 8);
	switch (a->ac_kind) {
	case DT_ACT_TRACE: print_trace(d, a, data); break;
	case DT_ACT_PRINTF: print_printf(d, a, data); break;
	case DT_ACT_SYSTEM: print_system(d, a, data); break;
	case DT_ACT_FREOPEN: print_freopen(d, a, data); break;
	case DT_ACT_FTRUNCATE: print_ftruncate(); break;
	case DT_ACT_PRINT: dtc_print_typed(a->ac_type, a->ac_args[0], data); break;
	case DT_ACT_USTACK: dtc_print_ustack(d, (const uint64_t *)data, dtrace_action_size(a, 0, 0) / 8); break;
	case DT_ACT_STACK: dtc_print_stack(d, (const uint64_t *)data, (uint32_t)(a->ac_arg ? a->ac_arg : d->dc_ov.dov_stackframes)); break;
	case DT_ACT_TRACEMEM:            /* always the dump, even of text */
		dtc_print_bytes(data, dtc_tracemem_size(a, data));
		break;
	case DT_ACT_SYM:
		dtc_print_sym((uint64_t)v, false, sym, sizeof(sym));
		dtc_out(d->dc_quiet ? "%s" : "  %-50s", sym);
		break;
	case DT_ACT_MOD:
		dtc_out(d->dc_quiet ? "%s" : "  %-50s", ksym_lookup_addr((uint64_t)v, &(struct ksym){ 0 }) ? "kernel" : "");
		break;
	case DT_ACT_USYM: case DT_ACT_UADDR: case DT_ACT_UMOD: {
		uint64_t image;
		memcpy(&image, data + 8, 8);
		dtc_uaddr_format(a->ac_kind == DT_ACT_USYM ? DT_KEY_USYM : a->ac_kind == DT_ACT_UADDR ?
		                 DT_KEY_UADDR : DT_KEY_UMOD, (uint64_t)v, image, sym, sizeof(sym));
		dtc_out(d->dc_quiet ? "%s" : "  %-50s", sym);
		break;
	}
	case DT_ACT_PRINTA: dtc_printa(d, a); break;
	case DT_ACT_CLEAR: case DT_ACT_TRUNC: case DT_ACT_NORMALIZE: case DT_ACT_DENORMALIZE:
		dtc_agg_apply(d, a, v);
		break;
	default:
		break;
	}
}

/*
 * dtc_action_text: what action a prints for the record data, quiet (no
 * padding), into buf (cut at size, always terminated).  Returns the length.
 */
size_t dtc_action_text(struct dtc *d, const dt_action *a, const uint8_t *data, char *buf,
                       size_t size)
{
	struct capture cp = { buf, size, 0 };
	struct file f, *outer = capture_begin(&f, &cp);
	bool quiet = d->dc_quiet;

	d->dc_quiet = true;
	print_action(d, a, data);
	capture_end(outer);
	d->dc_quiet = quiet;
	return cp.cp_len;
}

static void print_record(struct dtc *d, int cpu, const dtrace_rechdr_t *h, uint32_t next)
{
	dtrace_epinfo_t *ei = &d->dc_epinfo[h->dtrh_epid - 1];
	const dt_clause *cl = &d->dc_prog->dp_clauses[ei->dei_clause];
	const uint8_t *data = (const uint8_t *)(h + 1);
	char fn[DTRACE_FUNCNAMELEN + DTRACE_NAMELEN + 2];

	bool quiet = d->dc_quiet;                       /* setopt("quiet") takes effect after this record */

	if (d->dc_json) {                               /* -x oformat=json: dtc_json.c */
		dtc_json_record(d, cpu, h);
		return;
	}

	print_header(d);
	if (!quiet && d->dc_flowindent) {
		print_flow_prefix(d, cpu, h, next);
	} else if (!quiet) {
		ksnprintf(fn, sizeof(fn), "%s:%s", ei->dei_desc.dpd_func, ei->dei_desc.dpd_name);
		dtc_out("%3d %6u %32s ", cpu, ei->dei_probe, fn);
	}
	for (uint32_t i = 0; i < cl->cl_nacts; i++) {
		const dt_action *a = &cl->cl_acts[i];
		if (a->ac_kind == DT_ACT_SETOPT)
			dtc_setopt(d, a, h->dtrh_epid);
		print_action(d, a, data);
		data += dtrace_action_size(a, d->dc_ov.dov_strsize, d->dc_ov.dov_stackframes);
	}
	if (!quiet)
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
		else if (h->dtrh_epid >= 1 && h->dtrh_epid <= d->dc_nepids)
			print_record(d, cpu, h, next_epid(buf, len, off));
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
	if (d->dc_json)
		dtc_json_drop(d, tag, n, what, suffix);
	if (d->dc_droptags)
		ksnprintf(prefix, sizeof(prefix), "[%s] ", tag);
	dtc_err("dtrace: %s%lu %s%s%s\n", prefix, n, what, n == 1 ? "" : "s", suffix);
}

/*
 * The drops and failures of the whole state, as dtrace(1M) words them:
 * "dtrace: N WHATs SUFFIX", and the DTRACEDROP_* tag -x droptags prints,
 * in the order of DTrace's drop kinds.  The per-CPU ones (aggregation and
 * principal buffers) follow the CPU.
 */
static const struct dtc_drop {
	const char *dr_tag;
	size_t dr_field;                     /* offset of its counter in dtrace_status_t */
	const char *dr_what, *dr_suffix;
} dtc_drops[] = {
	{ "DTRACEDROP_DYNAMIC", offsetof(dtrace_status_t, dst_dyndrops), "dynamic variable drop", "" },
	{ "DTRACEDROP_DYNRINSE", offsetof(dtrace_status_t, dst_dynrinse), "dynamic variable drop",
	  " with non-empty rinsing list" },
	{ "DTRACEDROP_DYNDIRTY", offsetof(dtrace_status_t, dst_dyndirty), "dynamic variable drop",
	  " with non-empty dirty list" },
	{ "DTRACEDROP_SPEC", offsetof(dtrace_status_t, dst_specdrops), "speculative drop", "" },
	{ "DTRACEDROP_SPECBUSY", offsetof(dtrace_status_t, dst_specbusy), "failed speculation",
	  " (available buffer(s) still busy)" },
	{ "DTRACEDROP_SPECUNAVAIL", offsetof(dtrace_status_t, dst_specunavail), "failed speculation",
	  " (no speculative buffer available)" },
	{ "DTRACEDROP_DBLERROR", offsetof(dtrace_status_t, dst_dblerrors), "error",
	  " in ERROR probe enabling" },
};

static uint64_t status_field(const dtrace_status_t *st, size_t off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)st + off, sizeof(v));
	return v;
}

void dtc_report_drops(struct dtc *d)
{
	dtrace_status_t st;
	char on[24];

	/*
	 * libdtrace's order in one round of work: the status (the state's own
	 * counts), then the aggregation snapshot, then the principal buffers.
	 */
	dtrace_status_get(d->dc_state, &st);
	for (size_t i = 0; i < ARRAY_SIZE(dtc_drops); i++) {
		const struct dtc_drop *dr = &dtc_drops[i];
		report_count(d, dr->dr_tag, status_field(&st, dr->dr_field),
		             status_field(&d->dc_last, dr->dr_field), dr->dr_what, dr->dr_suffix);
	}
	for (int cpu = 0; cpu < dtrace_ncpus() && cpu < MAX_CPUS; cpu++) {
		ksnprintf(on, sizeof(on), " on CPU %d", cpu);
		report_count(d, "DTRACEDROP_AGGREGATION", st.dst_aggdrops[cpu], d->dc_last.dst_aggdrops[cpu],
		             "aggregation drop", on);
	}
	for (int cpu = 0; cpu < dtrace_ncpus() && cpu < MAX_CPUS; cpu++) {
		ksnprintf(on, sizeof(on), " on CPU %d", cpu);
		report_count(d, "DTRACEDROP_PRINCIPAL", st.dst_drops[cpu], d->dc_last.dst_drops[cpu], "drop", on);
	}
	d->dc_last = st;
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
		{ "buffer size", &d->dc_ov.dov_bufsize, &got.dov_bufsize },
		{ "aggregation size", &d->dc_ov.dov_aggsize, &got.dov_aggsize },
		{ "speculation size", &d->dc_ov.dov_specsize, &got.dov_specsize },
		{ "dynamic variable size", &d->dc_ov.dov_dynvarsize, &got.dov_dynvarsize },
	};
	char v[32];

	dtrace_opts_get(d->dc_state, &got);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		/* raised (DTrace's minimums), or only rounded to 8 bytes: no notice */
		if (*sizes[i].have != 0 && *sizes[i].have + 8 <= *sizes[i].want) {
			size_print(v, sizeof(v), *sizes[i].have);
			dtc_err("dtrace: %s lowered to %s\n", sizes[i].name, v);
		}
		*sizes[i].want = *sizes[i].have;
	}
}
