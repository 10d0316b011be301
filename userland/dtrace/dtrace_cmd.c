/*
 * dtrace_cmd.c - the dtrace command: dtrace(1M) at the sonde# prompt.
 *
 * The command parses dtrace(1M)'s options, compiles each -n/-s/-P/-m/-f/-i
 * separately (so errors name the right script and line), then, when there
 * are several, compiles them together into one program so they share
 * variables and one consumer state.  It enables the program, reports how
 * many probes each description matched, fires BEGIN, drains the buffers at
 * switchrate (checking for exit() and Ctrl-C every 10 ms, and every 64
 * records while printing), then stops (END), drains again, stops -c's
 * command if it still runs, prints a newline and the aggregations not yet
 * printed, and returns the exit status: exit()'s argument, 0 after Ctrl-C,
 * 1 for compile or enabling errors, 2 for bad usage.
 *
 * While tracing, the command's thread is marked untraced: a consumer is, to
 * DTrace, a user process whose work the kernel's probes do not see, and
 * here it would otherwise trace its own printing (docs/tracing.md).  The
 * first Ctrl-C stops tracing at once, even in the middle of printing, and
 * what was recorded is still printed; a second one stops the printing as
 * well (DTrace's impatience).
 *
 * Order: options, compiling, running.  Listing (-l, -lv), the DIF listing
 * (-S) and the stability report (-v) are in dtc_list.c, dtc_dis.c and
 * dtc_stability.c; the command runs as the "dtrace" process (dtc_proc.c).
 */
#include "kernel/console.h"
#include "kernel/kfile.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/thread.h"
#include "userland/dtrace/dtc.h"
#include "userland/shell/shell.h"
#include "userland/workloads/workload.h"

#define ARENA_SIZE (4UL << 20)
#define POLL_NS    (10 * NSEC_PER_MSEC)
#define STATUS_NS  (100 * NSEC_PER_MSEC)   /* while printing: ask for status this often */

static const char usage_text[] =
	"Usage: dtrace [-CeFhlqSvVwZ] [-c cmd] [-f [[provider:]module:]function]\n"
	"\t[-i probe-id] [-m [provider:]module] [-n [[[provider:]module:]function:]name]\n"
	"\t[-P provider] [-s script] [-x opt[=val]] [args ...]\n";

static int usage(void)
{
	dtc_err("%s", usage_text);
	return 2;
}

/* ---- options ---- */

static bool parse_size(const char *v, uint64_t *out)
{
	char num[32];
	size_t n = strlen(v);
	uint64_t mult = 1, x;

	if (n == 0 || n >= sizeof(num))
		return false;
	memcpy(num, v, n + 1);
	switch (num[n - 1]) {
	case 'k': case 'K': mult = 1UL << 10; num[--n] = 0; break;
	case 'm': case 'M': mult = 1UL << 20; num[--n] = 0; break;
	case 'g': case 'G': mult = 1UL << 30; num[--n] = 0; break;
	default: break;
	}
	if (!kstrtou64(num, &x) || x > UINT64_MAX / mult)
		return false;
	*out = x * mult;
	return true;
}

/* parse_rate: "10hz", "10" (hz), "100ms", "1s", ... into a period in ns. */
static bool parse_rate(const char *v, uint64_t *ns)
{
	static const struct { const char *sfx; uint64_t mult; } units[] = {
		{ "nsec", 1 }, { "ns", 1 }, { "usec", 1000 }, { "us", 1000 },
		{ "msec", NSEC_PER_MSEC }, { "ms", NSEC_PER_MSEC }, { "sec", NSEC_PER_SEC },
		{ "s", NSEC_PER_SEC }, { "min", 60 * NSEC_PER_SEC }, { "m", 60 * NSEC_PER_SEC },
		{ "hz", 0 }, { "", 0 },
	};
	char num[32];
	size_t n = strlen(v), k = 0;
	uint64_t x;

	while (k < n && v[k] >= '0' && v[k] <= '9')
		k++;
	if (k == 0 || k >= sizeof(num))
		return false;
	memcpy(num, v, k);
	num[k] = 0;
	if (!kstrtou64(num, &x) || x == 0)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(v + k, units[i].sfx) != 0)
			continue;
		*ns = units[i].mult ? x * units[i].mult : NSEC_PER_SEC / x;
		return *ns > 0;
	}
	return false;
}

static bool parse_bool_opt(const char *v)
{
	return v == NULL || *v == 0 || strcmp(v, "1") == 0 || strcmp(v, "yes") == 0 ||
	       strcmp(v, "true") == 0 || strcmp(v, "on") == 0;
}

/* parse_pos: an aggsortpos or aggsortkeypos, 0 to 8. */
static bool parse_pos(const char *v, int *pos)
{
	uint64_t x;

	if (!kstrtou64(v, &x) || x > 8)
		return false;
	*pos = (int)x;
	return true;
}

/* set_option: one -x name[=value] or #pragma D option; returns false if invalid. */
static bool set_option(struct dtc *d, const char *name, const char *val)
{
	dtrace_optvals_t *o = &d->ov;
	uint64_t x;

	if (strcmp(name, "quiet") == 0) { d->quiet = parse_bool_opt(val); return true; }
	if (strcmp(name, "destructive") == 0) { d->destructive = o->dov_destructive = true; return true; }
	if (strcmp(name, "errtags") == 0) { d->errtags = true; return true; }
	if (strcmp(name, "droptags") == 0) { d->droptags = true; return true; }
	if (strcmp(name, "zdefs") == 0) { d->zdefs = true; return true; }
	if (strcmp(name, "aggsortkey") == 0) { d->sortkey = parse_bool_opt(val); return true; }
	if (strcmp(name, "aggsortrev") == 0) { d->sortrev = parse_bool_opt(val); return true; }
	if (strcmp(name, "bufpolicy") == 0) {
		int p = val == NULL ? -1 : strcmp(val, "switch") == 0 ? DTRACE_BUFPOLICY_SWITCH :
		        strcmp(val, "fill") == 0 ? DTRACE_BUFPOLICY_FILL :
		        strcmp(val, "ring") == 0 ? DTRACE_BUFPOLICY_RING : -1;
		if (p < 0)
			return false;
		o->dov_bufpolicy = p;
		return true;
	}
	if (val == NULL)
		return false;
	if (strcmp(name, "switchrate") == 0) return parse_rate(val, &d->switchrate_ns);
	if (strcmp(name, "aggrate") == 0) return parse_rate(val, &d->aggrate_ns);
	if (strcmp(name, "cleanrate") == 0) return parse_rate(val, &o->dov_cleanrate_ns);
	if (strcmp(name, "statusrate") == 0) return parse_rate(val, &x);
	if (strcmp(name, "aggsortkeypos") == 0) return parse_pos(val, &d->sortkeypos);
	if (strcmp(name, "aggsortpos") == 0) return parse_pos(val, &d->sortpos);
	uint64_t *sizes[] = { &o->dov_bufsize, &o->dov_aggsize, &o->dov_dynvarsize, &o->dov_specsize };
	const char *snames[] = { "bufsize", "aggsize", "dynvarsize", "specsize" };
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
		if (strcmp(name, snames[i]) == 0)
			return parse_size(val, sizes[i]) && *sizes[i] > 0;
	uint32_t *counts[] = { &o->dov_strsize, &o->dov_nspec, &o->dov_stackframes };
	const char *cnames[] = { "strsize", "nspec", "stackframes" };
	for (size_t i = 0; i < ARRAY_SIZE(counts); i++) {
		if (strcmp(name, cnames[i]) != 0)
			continue;
		if (!parse_size(val, &x) || x == 0 || x > 65536)
			return false;
		*counts[i] = (uint32_t)x;
		return true;
	}
	return false;
}

static bool set_xopt(struct dtc *d, char *arg)
{
	char *eq = strchr(arg, '=');

	if (eq != NULL)
		*eq = 0;
	bool ok = set_option(d, arg, eq ? eq + 1 : NULL);
	if (!ok)
		dtc_err("dtrace: failed to set -x %s%s%s: %s\n", arg, eq ? "=" : "", eq ? eq + 1 : "",
		        eq ? "Invalid value for specified option" : "Invalid option name");
	if (eq != NULL)
		*eq = '=';
	return ok;
}

static bool add_desc(struct dtc *d, enum dtc_desc_kind kind, const char *text)
{
	if (d->ndescs == DTC_MAXDESCS) {
		dtc_err("dtrace: too many probe descriptions (at most %d)\n", DTC_MAXDESCS);
		return false;
	}
	d->descs[d->ndescs++] = (struct dtc_desc){ .dd_kind = kind, .dd_text = text };
	return true;
}

/* parse_args: dtrace(1M)'s options, getopt style; returns -1 to go on, else an exit status. */
static int parse_args(struct dtc *d, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] != 0; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		for (char *p = argv[i] + 1; *p; p++) {
			char c = *p;
			const char *optarg = NULL;
			if (strchr("cfimnPsxo", c)) {
				optarg = p[1] ? p + 1 : (i + 1 < argc ? argv[++i] : NULL);
				if (optarg == NULL) {
					dtc_err("dtrace: option requires an argument -- %c\n", c);
					return usage();
				}
			}
			switch (c) {
			case 'n': if (!add_desc(d, DTC_NAME, optarg)) return 2; break;
			case 's': if (!add_desc(d, DTC_SCRIPT, optarg)) return 2; break;
			case 'P': if (!add_desc(d, DTC_PROVIDER, optarg)) return 2; break;
			case 'm': if (!add_desc(d, DTC_MODULE, optarg)) return 2; break;
			case 'f': if (!add_desc(d, DTC_FUNCTION, optarg)) return 2; break;
			case 'i': if (!add_desc(d, DTC_ID, optarg)) return 2; break;
			case 'x': if (!set_xopt(d, (char *)optarg)) return 2; break;
			case 'c': d->ccmd = optarg; break;
			case 'o':
				dtc_err("dtrace: -o %s: Sonde has no writable files; output goes to the console\n", optarg);
				return 2;
			case 'q': d->quiet = true; break;
			case 'l': d->list = true; break;
			case 'v': d->verbose = true; break;
			case 'e': d->compile_only = true; break;
			case 'S': d->show_dif = true; break;
			case 'w': d->destructive = d->ov.dov_destructive = true; break;
			case 'Z': d->zdefs = true; break;
			case 'F': case 'C': break;      /* flowindent, cpp: accepted, no effect */
			case 'V': dtc_out("dtrace: Sun D 1.6.2 (Sonde)\n"); return 0;
			case 'h': return usage();
			default:
				dtc_err("dtrace: illegal option -- %c\n", c);
				return usage();
			}
			if (optarg != NULL)
				break;
		}
	}
	d->macro_argc = argc - i + 1;
	d->macro_argv = (const char *const *)&argv[i - 1];
	if (d->ndescs == 0 && !d->list)
		return usage();
	return -1;
}

/* ---- compiling ---- */

static void id_name(void *arg, dtrace_id_t id, const dtrace_probedesc_t *pd)
{
	(void)id;
	*(dtrace_probedesc_t *)arg = *pd;
}

/* desc_source: the D text of one description (script contents, or a probe description + {}). */
static int desc_source(struct dtc *d, struct dtc_desc *dd)
{
	const char *fmt = NULL;
	char idbuf[DTRACE_PROVNAMELEN + DTRACE_MODNAMELEN + DTRACE_FUNCNAMELEN + DTRACE_NAMELEN + 8];
	const char *t = dd->dd_text;

	(void)d;
	if (dd->dd_kind == DTC_SCRIPT) {
		const struct kfile *kf = kfile_lookup(t);
		if (kf == NULL) {
			dtc_err("dtrace: failed to open %s: No such file or directory\n", t);
			return 2;
		}
		dd->dd_src = (char *)kf->kf_data;
		dd->dd_len = (uint32_t)kf->kf_size;
		return -1;
	}
	if (dd->dd_kind == DTC_ID) {
		uint64_t id;
		dtrace_probedesc_t pd = { .dpd_id = 0 };
		if (!kstrtou64(t, &id) || id == 0 || id > UINT32_MAX) {
			dtc_err("dtrace: invalid probe specifier %s: %s is not a valid probe id\n", t, t);
			return 1;
		}
		pd.dpd_id = (dtrace_id_t)id;
		if (dtrace_probe_list(&pd, id_name, &pd) == 0) {
			dtc_err("dtrace: invalid probe specifier %s: probe description %s does not match any probes\n", t, t);
			return 1;
		}
		ksnprintf(idbuf, sizeof(idbuf), "%s:%s:%s:%s", pd.dpd_provider, pd.dpd_mod,
		          pd.dpd_func, pd.dpd_name);
		t = idbuf;
	}
	switch (dd->dd_kind) {
	case DTC_PROVIDER: fmt = "%s:::"; break;
	case DTC_MODULE: fmt = ":%s::"; break;
	case DTC_FUNCTION: fmt = "::%s:"; break;
	default: fmt = "%s"; break;
	}
	size_t cap = strlen(t) + 16;            /* room for the format and " {}" */
	char *src = kmalloc(cap);
	if (src == NULL)
		return 1;
	int n = ksnprintf(src, cap, fmt, t);
	if (strchr(src, '{') == NULL)
		n += ksnprintf(src + n, cap - (size_t)n, " {}");
	dd->dd_src = src;
	dd->dd_len = (uint32_t)n;
	return -1;
}

static int match_cb(void *arg, const dt_probedesc *pd)
{
	dtrace_probedesc_t d = dtrace_desc_of(pd);

	(void)arg;
	return dtrace_probe_count(&d);
}

static void compile_opts(struct dtc *d, dt_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->o_destructive = d->destructive;
	o->o_zdefs = d->zdefs || d->list;      /* -l reports what matches nothing itself */
	o->o_argv = d->macro_argv;
	o->o_argc = d->macro_argc;
	o->o_target = -1;
	o->o_match = match_cb;
	o->o_strsize = d->ov.dov_strsize;
}

static void compile_error(struct dtc *d, const struct dtc_desc *dd, const dt_error *e)
{
	char tag[64] = "";

	if (d->errtags && e->de_tag != NULL)
		ksnprintf(tag, sizeof(tag), "[%s] ", e->de_tag);
	if (dd->dd_kind == DTC_SCRIPT)
		dtc_err("dtrace: failed to compile script %s: %sline %u: %s\n", dd->dd_text, tag,
		        e->de_line, e->de_msg);
	else
		dtc_err("dtrace: invalid probe specifier %s: %sline %u: %s\n", dd->dd_text, tag,
		        e->de_line, e->de_msg);
}

static uint32_t count_lines(const char *s, uint32_t n)
{
	uint32_t lines = 0;

	for (uint32_t i = 0; i < n; i++)
		lines += s[i] == '\n';
	return lines;
}

/*
 * compile_all: every description in one program (so they share variables
 * and one consumer), each starting on a line of its own; an error's line
 * tells which description it is in, and is reported relative to it.
 */
static int compile_all(struct dtc *d)
{
	dt_opts o;
	dt_error err;
	size_t total = 0, n = 0;

	compile_opts(d, &o);
	for (int i = 0; i < d->ndescs; i++) {
		int rc = desc_source(d, &d->descs[i]);
		if (rc >= 0)
			return rc;
		total += d->descs[i].dd_len + 1;
	}
	char *all = kmalloc(total + 1);
	d->arena = kmalloc(ARENA_SIZE);
	if (all == NULL || d->arena == NULL) {
		kfree(all);
		dtc_err("dtrace: not enough memory to compile\n");
		return 1;
	}
	uint32_t line = 1;
	for (int i = 0; i < d->ndescs; i++) {
		struct dtc_desc *dd = &d->descs[i];
		memcpy(all + n, dd->dd_src, dd->dd_len);
		n += dd->dd_len;
		all[n++] = '\n';
		dd->dd_line = line;                /* first line of this description */
		line += count_lines(dd->dd_src, dd->dd_len) + 1;
		dd->dd_endline = line;             /* first line after it */
	}
	int rc = dt_compile(all, n, &o, d->arena, ARENA_SIZE, &d->prog, &err);
	kfree(all);
	if (rc == 0)
		return -1;
	for (int i = d->ndescs - 1; i >= 0; i--) {
		if (err.de_line >= d->descs[i].dd_line || i == 0) {
			err.de_line = err.de_line >= d->descs[i].dd_line ?
			              err.de_line - d->descs[i].dd_line + 1 : err.de_line;
			compile_error(d, &d->descs[i], &err);
			break;
		}
	}
	return 1;
}

static int apply_pragmas(struct dtc *d)
{
	for (uint32_t i = 0; i < d->prog->dp_noptions; i++) {
		const dt_option *op = &d->prog->dp_options[i];
		if (!set_option(d, op->op_name, op->op_value[0] ? op->op_value : NULL)) {
			dtc_err("dtrace: failed to set option %s: Invalid option name or value\n", op->op_name);
			return 2;
		}
	}
	return -1;
}

/* ---- -S, -l and -v: dtc_dis.c, dtc_list.c, dtc_stability.c ---- */

/* ---- running ---- */

/* trace_stop: stop tracing (END fires), once. */
static void trace_stop(struct dtc *d)
{
	if (!d->stopped)
		dtrace_stop(d->state);
	d->stopped = true;
}

bool dtc_poll(struct dtc *d)
{
	unsigned long intrs = console_interrupt_count() - d->intr_base;
	uint64_t now = ktime_ns();

	if (intrs >= 1 && !d->interrupted) {
		d->interrupted = true;          /* the flag stays set: the shell flushes the input */
		trace_stop(d);
	}
	d->impatient |= intrs >= 2;
	if (!d->stopped && now >= d->next_status) {
		dtrace_status_t st;
		dtrace_status_get(d->state, &st);
		d->next_status = now + STATUS_NS;
	}
	return !d->impatient;
}

static void drain(struct dtc *d)
{
	for (int cpu = 0; cpu < dtrace_ncpus() && !d->impatient; cpu++) {
		thread_set_untraced(false);     /* the snapshot is our "system call": seen, */
		long n = dtrace_buffer_snapshot(d->state, cpu, d->buf, d->ov.dov_bufsize);
		thread_set_untraced(true);      /* as DTrace sees a consumer's ioctl (its cross-call) */
		if (n > 0)
			dtc_records(d, cpu, d->buf, n);
	}
	dtc_report_drops(d);
}

static void report_matches(struct dtc *d, const uint32_t *matched)
{
	for (int i = 0; i < d->ndescs && !d->quiet; i++) {
		const struct dtc_desc *dd = &d->descs[i];
		uint32_t n = 0;
		for (uint32_t c = 0; c < d->prog->dp_nclauses; c++) {
			uint32_t l = d->prog->dp_clauses[c].cl_line;
			if (l >= dd->dd_line && l < dd->dd_endline)
				n += matched[c];
		}
		if (dd->dd_kind == DTC_SCRIPT) {
			dtc_err("dtrace: script '%s' matched %u probe%s\n", dd->dd_text, n, n == 1 ? "" : "s");
			continue;
		}
		char text[256];
		size_t k = 0;
		while (dd->dd_text[k] && !strchr("{/;", dd->dd_text[k]) && k + 1 < sizeof(text)) {
			text[k] = dd->dd_text[k];
			k++;
		}
		text[k] = 0;
		dtc_err("dtrace: description '%s' matched %u probe%s\n", text, n, n == 1 ? "" : "s");
	}
}

static int enable_and_setup(struct dtc *d)
{
	char errbuf[256];
	uint32_t *matched = kzalloc((d->prog->dp_nclauses + 1) * sizeof(uint32_t));
	int rc = matched ? dtrace_open(&d->ov, &d->state) : DTRACE_ENOMEM;

	if (rc == 0)
		rc = dtrace_enable(d->state, d->prog, matched, errbuf, sizeof(errbuf));
	if (rc != 0) {
		if (rc == DTRACE_EPERM)
			dtc_err("dtrace: could not enable tracing: Destructive actions not allowed\n");
		else
			dtc_err("dtrace: could not enable tracing: %s%s%s\n", dtrace_errmsg(rc),
			        errbuf[0] ? ": " : "", errbuf);
		kfree(matched);
		return 1;
	}
	if (d->destructive && !d->quiet)
		dtc_err("dtrace: allowing destructive actions\n");
	report_matches(d, matched);
	kfree(matched);
	if (d->verbose)
		dtc_stability_report(d, true);      /* -v: the program's stability */
	dtc_report_sizes(d);                    /* and take the sizes the buffers got */
	dtrace_epinfo_t ei;
	while (dtrace_epid_info(d->state, d->nepids + 1, &ei) == 0)
		d->nepids++;
	d->epinfo = kmalloc((d->nepids + 1) * sizeof(*d->epinfo));
	d->buf = kmalloc(MAX(d->ov.dov_bufsize, 8));   /* a buffer of 0 still gets a snapshot */
	d->agg_printed = kzalloc((d->prog->dp_naggs + 1) * sizeof(bool));
	d->agg_normal = kzalloc((d->prog->dp_naggs + 1) * sizeof(int64_t));
	if (!d->epinfo || !d->buf || !d->agg_printed || !d->agg_normal) {
		dtc_err("dtrace: not enough memory for the consumer's buffers\n");
		return 1;
	}
	for (uint32_t i = 0; i < d->nepids; i++)
		dtrace_epid_info(d->state, i + 1, &d->epinfo[i]);
	return -1;
}

/*
 * run_loop: until exit(), Ctrl-C, the -c command's end, a full buffer or
 * the deadman.  exit() is seen in the status (the state is draining), not
 * only in its record, which could be among the drops.
 */
static void run_loop(struct dtc *d)
{
	uint64_t next_drain = ktime_ns() + d->switchrate_ns;
	bool periodic = d->ov.dov_bufpolicy == DTRACE_BUFPOLICY_SWITCH;
	dtrace_status_t st;

	for (;;) {
		dtrace_status_get(d->state, &st);
		if (st.dst_exited || st.dst_killed || st.dst_filled || !dtc_poll(d) || d->interrupted ||
		    (d->proc != NULL && dtc_proc_done(d->proc)))
			break;
		if (periodic && ktime_ns() >= next_drain) {
			drain(d);
			next_drain += d->switchrate_ns;
		}
		thread_sleep_ns(POLL_NS);
	}
}

/*
 * trace_run: enable, go, run the -c command, loop, then stop: drain what
 * was recorded, fire END, drain again, stop the command if it still runs,
 * and print the aggregations (not after a second Ctrl-C, as DTrace).
 */
static int trace_run(struct dtc *d)
{
	dtrace_status_t st;

	if (d->ccmd != NULL && !dtc_proc_exists(d->ccmd)) {
		dtc_err("dtrace: failed to execute %s: No such file or directory\n", d->ccmd);
		return 1;
	}
	int rc = enable_and_setup(d);
	if (rc >= 0)
		return rc;
	thread_set_untraced(true);              /* a consumer is a user process: untraced */
	if (dtrace_go(d->state) != 0) {
		dtc_err("dtrace: could not enable tracing: %s\n", dtrace_errmsg(DTRACE_ESTATE));
		return 1;
	}
	if (d->ccmd != NULL && (d->proc = dtc_proc_create(d->ccmd)) == NULL) {
		dtc_err("dtrace: failed to run command '%s': out of memory\n", d->ccmd);
		trace_stop(d);
		return 1;
	}
	run_loop(d);
	drain(d);
	trace_stop(d);
	drain(d);
	dtc_proc_release(d->proc);              /* a command dtrace started does not outlive it */
	d->proc = NULL;
	dtrace_status_get(d->state, &st);
	if (st.dst_killed) {
		dtc_err("dtrace: processing aborted: Abort due to systemic unresponsiveness\n");
		return 1;
	}
	if (!d->impatient) {
		dtc_out("\n");
		dtc_agg_print_all(d);
	}
	return st.dst_exited ? (st.dst_exitstatus & 0xff) : 0;   /* as a process's exit status */
}

static void dtc_free(struct dtc *d)
{
	dtc_proc_release(d->proc);
	if (d->state != NULL)
		dtrace_close(d->state);
	dtc_agg_free(d);
	kfree(d->aggs);
	kfree(d->agghash);
	kfree(d->epinfo);
	kfree(d->buf);
	kfree(d->agg_printed);
	kfree(d->agg_normal);
	for (int i = 0; i < d->ndescs; i++)
		if (d->descs[i].dd_kind != DTC_SCRIPT)
			kfree(d->descs[i].dd_src);
	kfree(d->arena);
	kfree(d);
}

static int cmd_dtrace(int argc, char **argv)
{
	struct dtc *d = kzalloc(sizeof(*d));
	int rc;

	if (d == NULL) {
		dtc_err("dtrace: out of memory\n");
		return 1;
	}
	dtrace_opts_default(&d->ov);
	dtc_process_enter(d);
	d->intr_base = console_interrupt_count();
	d->switchrate_ns = NSEC_PER_SEC;
	d->aggrate_ns = NSEC_PER_SEC;
	rc = parse_args(d, argc, argv);
	if (rc < 0 && d->ndescs > 0)
		rc = compile_all(d);
	if (rc < 0 && d->prog != NULL)
		rc = apply_pragmas(d);
	if (rc < 0 && d->show_dif)
		dtc_show_dif(d);
	if (rc < 0 && d->list)
		rc = dtc_list(d);
	if (rc < 0 && d->compile_only && d->verbose && !d->list)
		dtc_stability_report(d, false);
	if (rc < 0 && d->compile_only)
		rc = 0;
	if (rc < 0)
		rc = trace_run(d);
	thread_set_untraced(false);
	dtc_process_leave(d);
	dtc_free(d);
	return rc;
}

SHELL_COMMAND(dtrace, cmd_dtrace, "dtrace [-lqeSvVwZ] [-n desc] [-s script] [-x opt=val] [-c cmd] ...",
              "dynamic tracing: compile and run D programs (dtrace(1M))");
