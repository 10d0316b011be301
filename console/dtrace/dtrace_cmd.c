/*
 * dtrace_cmd.c - the dtrace command: dtrace(1M) at the sonde# prompt.
 *
 * The command parses dtrace(1M)'s flags and operands (dtc_args.c, options
 * through dtc_opt.c), creates -c's command (held, so $target is known),
 * turns each -n/-P/-m/-f/-i into D (dtc_desc.c) and compiles all the
 * descriptions together into one program so they share variables and one
 * consumer state, each on lines of its own so that an error names the
 * right script and line.  It enables the program, reports how
 * many probes each description matched, fires BEGIN, drains the buffers at
 * switchrate (checking for exit() and Ctrl-C every 10 ms, and every 64
 * records while printing) and the aggregation buffers at aggrate (into
 * the state's kept table, so aggsize need only hold one period's new
 * keys), then stops (END), drains again, stops -c's
 * command if it still runs, prints a newline and the aggregations not yet
 * printed, and returns the exit status: exit()'s argument, 0 after Ctrl-C,
 * 1 for compile or enabling errors, 2 for bad usage.
 *
 * While tracing, the command's thread is marked untraced: a consumer is, to
 * DTrace, a user process whose work the kernel's probes do not see, and
 * here it would otherwise trace its own printing (docs/tracing.md).  It is
 * also a prompt thread (thread_set_prompt): each 10 ms poll wakes it ahead
 * of every runnable thread on its CPU, so exit() and Ctrl-C are seen within
 * a poll under any load, not after a quantum of each busy process.  The
 * first Ctrl-C stops tracing at once, even in the middle of printing, and
 * what was recorded is still printed; a second one stops the printing as
 * well (DTrace's impatience).  Stopping (dtrace_stop) disarms the probes,
 * so the printing and closing that follow run untrapped.
 *
 * Order: compiling, running.  The command line and options are in
 * dtc_args.c and dtc_opt.c; listing (-l, -lv), the DIF listing (-S) and
 * the stability report (-v) in dtc_list.c, dtc_dis.c and dtc_stability.c;
 * the command runs as the "dtrace" process (dtc_proc.c).
 *
 * Tests: tests/d (every program); tests/e2e/test_dtrace_console.py,
 *        tests/e2e/test_dtrace_flood.py
 */
#include "kernel/console.h"
#include "kernel/file.h"
#include "kernel/kfile.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/thread.h"
#include "console/dtrace/dtc.h"
#include "console/shell/shell.h"
#include "console/workloads/workload.h"

#define ARENA_SIZE (4UL << 20)
#define ARENA_MAX  (256UL << 20)     /* the arena doubles up to this on D_NOMEM */
#define POLL_NS    (10 * NSEC_PER_MSEC)
#define STATUS_NS  (100 * NSEC_PER_MSEC)   /* while printing: ask for status this often */

/* ---- compiling ---- */

/* desc_source: the D text of one description (script contents, or a probe description + {}). */
static int desc_source(struct dtc *d, struct dtc_desc *dd)
{
	const char *t = dd->dd_text;

	(void)d;
	if (dd->dd_kind == DTC_SCRIPT) {
		const struct kfile *kf = kfile_lookup(t);
		size_t len;
		if (kf == NULL && file_read_all(t, &dd->dd_src, &len) == 0) {   /* /tmp */
			dd->dd_src_owned = true;
			dd->dd_len = (uint32_t)len;
			return -1;
		}
		if (kf == NULL) {
			dtc_err("dtrace: failed to open %s: No such file or directory\n", t);
			return 1;                   /* DTrace's fatal(): status 1 */
		}
		dd->dd_src = (char *)kf->kf_data;
		dd->dd_len = (uint32_t)kf->kf_size;
		return -1;
	}
	return dtc_desc_source(dd);
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
	o->o_destructive = d->dc_destructive;
	o->o_zdefs = d->dc_zdefs || d->dc_list;      /* -l reports what matches nothing itself */
	o->o_argv = d->dc_macro_argv;
	o->o_argc = d->dc_macro_argc;
	o->o_target = d->dc_proc != NULL ? (int64_t)dtc_proc_id(d->dc_proc) : -1;
	o->o_match = match_cb;
	o->o_strsize = d->dc_ov.dov_strsize;
	o->o_defargs = d->dc_defargs;
	o->o_argref = d->dc_argref;
	o->o_version = d->dc_version;            /* -x version=: newer functions hidden */
	o->o_pid = (int64_t)dtc_process_pid();   /* the consumer's own, as BEGIN sees it */
	dtc_ctf_opts(o);                         /* kernel types (dtc_ctf.c) */
}

static void compile_error(struct dtc *d, const struct dtc_desc *dd, const dt_error *e)
{
	char tag[64] = "";

	if (d->dc_errtags && e->de_tag != NULL)
		ksnprintf(tag, sizeof(tag), "[%s] ", e->de_tag);
	if (e->de_file != NULL)          /* in a file of the D library */
		dtc_err("dtrace: failed to compile script /%s: %sline %u: %s\n", e->de_file, tag,
		        e->de_line, e->de_msg);
	else if (dd->dd_kind == DTC_SCRIPT)
		dtc_err("dtrace: failed to compile script %s: %sline %u: %s\n", dd->dd_text, tag,
		        e->de_line, e->de_msg);
	else                                    /* DTrace numbers only the lines of files */
		dtc_err("dtrace: invalid probe specifier %s: %s%s\n", dd->dd_text, tag, e->de_msg);
}

static uint32_t count_lines(const char *s, uint32_t n)
{
	uint32_t lines = 0;

	for (uint32_t i = 0; i < n; i++)
		lines += s[i] == '\n';
	return lines;
}

/*
 * compile_grow: dt_compile into d->dc_arena (ARENA_SIZE bytes), and while that
 * runs out of memory (a long script), again into one twice the size, up to
 * ARENA_MAX; the compile's own D_NOMEM if even that is not enough.
 */
static int compile_grow(struct dtc *d, const char *src, size_t n, const dt_opts *o, dt_error *err)
{
	size_t size = ARENA_SIZE;
	int rc;

	while ((rc = dt_compile(src, n, o, d->dc_arena, size, &d->dc_prog, err)) != 0 &&
	       strcmp(err->de_tag, "D_NOMEM") == 0 && size < ARENA_MAX) {
		void *bigger = kmalloc(size * 2);
		if (bigger == NULL)
			break;
		kfree(d->dc_arena);
		d->dc_arena = bigger;
		size *= 2;
	}
	return rc;
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
	size_t total = 0, n = 0, total_lines = 0;

	compile_opts(d, &o);
	for (int i = 0; i < d->dc_ndescs; i++) {
		struct dtc_desc *dd = &d->dc_descs[i];
		int rc = desc_source(d, dd);
		if (rc >= 0)
			return rc;
		dd->dd_srclines = count_lines(dd->dd_src, dd->dd_len);
		if (d->dc_cpp && (rc = dtc_cpp_desc(d, dd, (uint32_t)(1 + total_lines))) >= 0)
			return rc;                 /* -C: dtc_cpp.c */
		total_lines += dd->dd_srclines + 1;
		total += dd->dd_len + 1;
	}
	char *all = kmalloc(total + 1);
	d->dc_arena = kmalloc(ARENA_SIZE);
	if (all == NULL || d->dc_arena == NULL) {
		kfree(all);
		dtc_err("dtrace: not enough memory to compile\n");
		return 1;
	}
	uint32_t line = 1;
	for (int i = 0; i < d->dc_ndescs; i++) {
		struct dtc_desc *dd = &d->dc_descs[i];
		memcpy(all + n, dd->dd_src, dd->dd_len);
		for (uint32_t k = 0; dd->dd_len > 1 && dd->dd_src[0] == '#' && dd->dd_src[1] == '!' &&
		     k < dd->dd_len && all[n + k] != '\n'; k++)
			all[n + k] = ' ';            /* "#!/usr/sbin/dtrace -s": an interpreter file's line */
		n += dd->dd_len;
		all[n++] = '\n';
		dd->dd_line = line;                /* first line of this description */
		line += dd->dd_srclines + 1;       /* as written: -C's text says #line */
		dd->dd_endline = line;             /* first line after it */
	}
	dt_libsrc *libs;
	o.o_nlibs = dtc_lib_collect(d, &libs);
	o.o_libs = libs;
	int rc = compile_grow(d, all, n, &o, &err);
	kfree(libs);
	kfree(all);
	if (rc == 0)
		return -1;
	for (int i = err.de_file != NULL ? -1 : d->dc_ndescs - 1; i >= 0; i--) {
		if (err.de_line >= d->dc_descs[i].dd_line || i == 0) {
			err.de_line = err.de_line >= d->dc_descs[i].dd_line ?
			              err.de_line - d->dc_descs[i].dd_line + 1 : err.de_line;
			/* the end of input is on the line after the text's last
			 * newline, not after the newline added to separate it */
			if (err.de_line > d->dc_descs[i].dd_srclines + 1)
				err.de_line = d->dc_descs[i].dd_srclines + 1;
			compile_error(d, &d->dc_descs[i], &err);
			break;
		}
	}
	if (err.de_file != NULL)
		compile_error(d, &d->dc_descs[0], &err);
	return 1;
}

static int apply_pragmas(struct dtc *d);

int dtc_compile(struct dtc *d)
{
	int rc = compile_all(d);

	return rc >= 0 ? rc : apply_pragmas(d);
}

static int apply_pragmas(struct dtc *d)
{
	for (uint32_t i = 0; i < d->dc_prog->dp_noptions; i++) {
		const dt_option *op = &d->dc_prog->dp_options[i];
		const char *val = op->op_value[0] ? op->op_value : NULL;
		dt_opterr e = dtc_opt_set(d, op->op_name, val);
		if (e != DT_OPT_OK) {
			dtc_err("dtrace: failed to compile program: line %u: failed to set option '%s'%s%s%s: %s\n",
			        op->op_line, op->op_name, val ? " to '" : "", val ? val : "", val ? "'" : "",
			        dt_option_errmsg(e));
			return 1;
		}
	}
	return -1;
}

/* ---- -S, -l and -v: dtc_dis.c, dtc_list.c, dtc_stability.c ---- */

/* ---- running ---- */

/* trace_stop: stop tracing (END fires), once. */
static void trace_stop(struct dtc *d)
{
	if (!d->dc_stopped)
		dtrace_stop(d->dc_state);
	d->dc_stopped = true;
}

bool dtc_poll(struct dtc *d)
{
	unsigned long intrs = console_interrupt_count() - d->dc_intr_base;
	uint64_t now = ktime_ns();

	if (intrs >= 1 && !d->dc_interrupted) {
		d->dc_interrupted = true;          /* the flag stays set: the shell flushes the input */
		trace_stop(d);
	}
	d->dc_impatient |= intrs >= 2;
	if (kstdout_broken()) {                 /* our pipe's reader is gone (| /bin/head): stop now, as SIGPIPE would */
		d->dc_interrupted = true;
		trace_stop(d);
		d->dc_impatient = true;
	}
	if (!d->dc_stopped && now >= d->dc_next_status) {
		dtrace_status_t st;
		dtrace_status_get(d->dc_state, &st);
		d->dc_next_status = now + STATUS_NS;
	}
	return !d->dc_impatient;
}

static void drain(struct dtc *d)
{
	for (int cpu = 0; cpu < dtrace_ncpus() && !d->dc_impatient; cpu++) {
		thread_set_untraced(false);     /* the snapshot is our "system call": seen, */
		long n = dtrace_buffer_snapshot(d->dc_state, cpu, d->dc_buf, d->dc_ov.dov_bufsize);
		thread_set_untraced(true);      /* as DTrace sees a consumer's ioctl (its cross-call) */
		if (n > 0)
			dtc_records(d, cpu, d->dc_buf, n);
	}
	dtc_report_drops(d);
}

static void report_matches(struct dtc *d, const uint32_t *matched)
{
	for (int i = 0; i < d->dc_ndescs && !d->dc_quiet; i++) {
		const struct dtc_desc *dd = &d->dc_descs[i];
		uint32_t n = 0;
		for (uint32_t c = 0; c < d->dc_prog->dp_nclauses; c++) {
			uint32_t l = d->dc_prog->dp_clauses[c].cl_line;
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

/*
 * enable_dof: hand the program to the kernel as DOF, as DTrace's consumer
 * does; the consumer keeps its own dt_prog to print with.
 */
static int enable_dof(struct dtc *d, uint32_t *matched, char *errbuf, size_t errlen)
{
	size_t len = dt_dof_write(d->dc_prog, NULL, 0);
	void *dof = kmalloc(len);

	if (dof == NULL)
		return DTRACE_ENOMEM;
	dt_dof_write(d->dc_prog, dof, len);
	int rc = dtrace_enable_dof(d->dc_state, dof, len, matched, errbuf, errlen);
	kfree(dof);
	return rc;
}

static int enable_and_setup(struct dtc *d)
{
	char errbuf[256] = "";
	uint32_t *matched = kzalloc((d->dc_prog->dp_nclauses + 1) * sizeof(uint32_t));
	if (d->dc_ov.dov_cpu >= dtrace_ncpus()) {
		dtc_err("dtrace: could not enable tracing: cpu %d is not online (CPUs 0 to %d)\n",
		        d->dc_ov.dov_cpu, dtrace_ncpus() - 1);
		kfree(matched);
		return 1;
	}
	int rc = matched ? dtrace_open(&d->dc_ov, &d->dc_state) : DTRACE_ENOMEM;

	if (rc == 0)
		dtc_ustack_frames(d->dc_prog, d->dc_ov.dov_ustackframes);
	if (rc == 0)
		rc = enable_dof(d, matched, errbuf, sizeof(errbuf));
	if (rc != 0) {
		if (rc == DTRACE_EBUFSMALL || rc == DTRACE_EENDBIG || rc == DTRACE_ENOMEM)
			report_matches(d, matched);     /* DTrace finds these at go, after matching */
		if (rc == DTRACE_EPERM)
			dtc_err("dtrace: could not enable tracing: Destructive actions not allowed\n");
		else
			dtc_err("dtrace: could not enable tracing: %s%s%s\n", dtrace_errmsg(rc),
			        errbuf[0] ? ": " : "", errbuf);
		kfree(matched);
		return 1;
	}
	if (d->dc_destructive && !d->dc_quiet)
		dtc_err("dtrace: allowing destructive actions\n");
	report_matches(d, matched);
	kfree(matched);
	if (d->dc_verbose)
		dtc_stability_report(d, true);      /* -v: the program's stability */
	dtc_report_sizes(d);                    /* and take the sizes the buffers got */
	dtrace_epinfo_t ei;
	while (dtrace_epid_info(d->dc_state, d->dc_nepids + 1, &ei) == 0)
		d->dc_nepids++;
	d->dc_epinfo = kmalloc((d->dc_nepids + 1) * sizeof(*d->dc_epinfo));
	d->dc_buf = kmalloc(MAX(d->dc_ov.dov_bufsize, 8));   /* a buffer of 0 still gets a snapshot */
	d->dc_agg_printed = kzalloc((d->dc_prog->dp_naggs + 1) * sizeof(bool));
	d->dc_agg_normal = kzalloc((d->dc_prog->dp_naggs + 1) * sizeof(int64_t));
	if (!d->dc_epinfo || !d->dc_buf || !d->dc_agg_printed || !d->dc_agg_normal) {
		dtc_err("dtrace: not enough memory for the consumer's buffers\n");
		return 1;
	}
	for (uint32_t i = 0; i < d->dc_nepids; i++)
		dtrace_epid_info(d->dc_state, i + 1, &d->dc_epinfo[i]);
	return -1;
}

/*
 * run_loop: until exit(), Ctrl-C, the -c command's end, a full buffer or
 * the deadman.  exit() is seen in the status (the state is draining), not
 * only in its record, which could be among the drops.
 */
static void run_loop(struct dtc *d)
{
	uint64_t next_drain = ktime_ns() + d->dc_switchrate_ns;
	uint64_t next_agg = ktime_ns() + d->dc_aggrate_ns;
	bool periodic = d->dc_ov.dov_bufpolicy == DTRACE_BUFPOLICY_SWITCH;
	dtrace_status_t st;

	for (;;) {
		dtrace_status_get(d->dc_state, &st);
		if (st.dst_exited || st.dst_killed || st.dst_filled || !dtc_poll(d) || d->dc_interrupted ||
		    d->dc_follow_once ||
		    (d->dc_proc != NULL && dtc_proc_done(d->dc_proc)))
			break;
		if (periodic && ktime_ns() >= next_drain) {
			drain(d);
			next_drain += d->dc_switchrate_ns;
		}
		if (ktime_ns() >= next_agg) {       /* aggrate: the kernel's aggregations to ours */
			dtrace_agg_drain(d->dc_state);
			next_agg = ktime_ns() + d->dc_aggrate_ns;
		}
		thread_sleep_ns(POLL_NS);
	}
}

/*
 * trace_run: enable, go, run the -c command, loop, then stop: drain what
 * was recorded, fire END, drain again, stop the command if it still runs,
 * and print the aggregations (not after a second Ctrl-C, as DTrace).
 */
int dtc_trace_start(struct dtc *d, bool untraced)
{
	int rc = enable_and_setup(d);
	if (rc >= 0)
		return rc;
	if (untraced) {
		thread_set_untraced(true);      /* a consumer is a user process: untraced */
		thread_set_prompt(true);        /* and runs as soon as it wakes, whatever else runs */
	}
	if (dtrace_go(d->dc_state) != 0) {
		dtc_err("dtrace: could not enable tracing: %s\n", dtrace_errmsg(DTRACE_ESTATE));
		return 1;
	}
	return -1;
}

static int trace_run(struct dtc *d)
{
	if (d->dc_grabanon)                        /* -a: dtc_anon.c */
		return dtc_anon_claim(d);
	int rc = dtc_trace_start(d, true);
	if (rc >= 0)
		return rc;
	if (d->dc_proc != NULL)
		dtc_proc_start(d->dc_proc);
	return dtc_trace_follow(d);
}

int dtc_trace_follow(struct dtc *d)
{
	dtrace_status_t st;

	run_loop(d);
	dtc_proc_notice(d->dc_proc, d->dc_quiet);
	drain(d);
	trace_stop(d);
	drain(d);
	d->dc_uimage = dtc_uimage(d);              /* printa's %A after the process is gone */
	dtc_proc_release(d->dc_proc);              /* a command dtrace started does not outlive it */
	d->dc_proc = NULL;
	dtrace_status_get(d->dc_state, &st);
	if (st.dst_killed) {
		dtc_err("dtrace: processing aborted: Abort due to systemic unresponsiveness\n");
		return 1;
	}
	if (!d->dc_impatient) {
		if (!d->dc_json)                   /* JSON Lines: no blank line */
			dtc_out("\n");
		dtc_agg_print_all(d);
	}
	return st.dst_exited ? (st.dst_exitstatus & 0xff) : 0;   /* as a process's exit status */
}

/* proc_create: -c's command, created (held) before compiling so that $target is its id. */
static int proc_create(struct dtc *d)
{
	if (!dtc_proc_exists(d->dc_ccmd)) {
		dtc_err("dtrace: failed to execute %s: No such file or directory\n", d->dc_ccmd);
		return 1;
	}
	if ((d->dc_proc = dtc_proc_create(d->dc_ccmd)) == NULL) {
		dtc_err("dtrace: failed to run command '%s': out of memory\n", d->dc_ccmd);
		return 1;
	}
	return -1;
}

/* proc_grab: -p's process, which must be running; $target is its pid, tracing ends when it does. */
static int proc_grab(struct dtc *d)
{
	uint64_t pid;

	if (!kstrtou64(d->dc_pgrab, &pid) || pid == 0 || pid > INT32_MAX ||
	    (d->dc_proc = dtc_proc_grab((int)pid)) == NULL) {
		dtc_err("dtrace: failed to grab pid %s: No such process\n", d->dc_pgrab);
		return 1;
	}
	return -1;
}

void dtc_free(struct dtc *d)
{
	dtc_proc_release(d->dc_proc);
	if (d->dc_state != NULL)
		dtrace_close(d->dc_state);
	dtc_agg_free(d);
	kfree(d->dc_aggs);
	kfree(d->dc_agghash);
	kfree(d->dc_epinfo);
	kfree(d->dc_buf);
	kfree(d->dc_agg_printed);
	kfree(d->dc_agg_normal);
	for (int i = 0; i < d->dc_ndescs; i++)
		if (d->dc_descs[i].dd_kind != DTC_SCRIPT || d->dc_descs[i].dd_src_owned)
			kfree(d->dc_descs[i].dd_src);
	for (int i = 0; i < d->dc_ncpp_defs; i++)
		kfree((char *)d->dc_cpp_defs[i]);
	kfree(d->dc_arena);
	kfree(d->dc_operands);
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
	dtrace_opts_default(&d->dc_ov);
	dtc_process_enter(d);
	d->dc_intr_base = console_interrupt_count();
	d->dc_switchrate_ns = NSEC_PER_SEC;
	d->dc_aggrate_ns = NSEC_PER_SEC;
	d->dc_stackindent = 14;
	rc = dtc_parse_args(d, argc, argv);
	if (rc < 0)
		rc = dtc_ofile_open(d);
	if (rc < 0 && d->dc_ccmd != NULL)
		rc = proc_create(d);
	else if (rc < 0 && d->dc_pgrab != NULL)
		rc = proc_grab(d);
	if (rc < 0 && d->dc_ndescs > 0)
		rc = compile_all(d);
	if (rc < 0 && d->dc_prog != NULL)
		rc = apply_pragmas(d);
	if (rc < 0 && (d->dc_gen_object || d->dc_gen_header))
		rc = dtc_gen(d);
	if (rc < 0 && d->dc_show_dif)
		dtc_show_dif(d);
	if (rc < 0 && d->dc_list)
		rc = dtc_list(d);
	if (rc < 0 && d->dc_compile_only && d->dc_verbose && !d->dc_list)
		dtc_stability_report(d, false);
	if (rc < 0 && d->dc_compile_only && !d->dc_grabanon)
		rc = 0;                         /* -ae: claim the anonymous state, then exit */
	if (rc < 0)
		rc = trace_run(d);
	thread_set_untraced(false);
	thread_set_prompt(false);
	dtc_process_leave(d);
	if (dtc_ofile_close(d) != 0 && rc == 0)
		rc = 1;
	dtc_free(d);
	return rc;
}

SHELL_COMMAND(dtrace, cmd_dtrace, "dtrace [-lqeSvVwZ] [-n desc] [-s script] [-x opt=val] [-c cmd] ...",
              "dynamic tracing: compile and run D programs (dtrace(1M))");
