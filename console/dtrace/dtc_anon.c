/*
 * dtc_anon.c - anonymous tracing: an enabling made at boot, claimed later.
 *
 * DTrace's dtrace -A writes an enabling into the driver's configuration
 * file; at the next boot the driver enables it before anything else runs,
 * with no consumer, and dtrace -a later claims that "anonymous" state and
 * prints what it gathered (drops and errors included), then goes on
 * tracing (-ae: prints and exits).  Sonde has no persistent storage, so the
 * host keeps the enabling: tools/dtrace -A checks the program in a guest and
 * saves it (the dtrace command line and its script files) on the host; every
 * later boot through tools/dtrace carries it in the boot module as
 * .sonde/anon (the command line) and the scripts.  docs/tracing.md has the
 * whole design.
 *
 * dtrace_anon_boot runs in kmain, after the providers and the other CPUs
 * are up and before the first thread (init) is created: it compiles and
 * enables the program and fires BEGIN in the boot thread, with the
 * deadman off (nobody asks for status until the claim, as DTrace exempts
 * its anonymous state).  Its messages ("dtrace: script 'x.d' matched N
 * probes", errors) go to standard error.  dtc_anon_claim (dtrace -a, in a
 * command's thread) takes the state over: only one claim ever gets it, and
 * the claiming command's -q and -x oformat=json apply to the printing.
 *
 * Context: dtrace_anon_boot in boot context (no sleeping); the claim in the
 * consumer's thread.  The anonymous state is one pointer, set at boot before
 * any thread runs and taken once by the console's thread.
 *
 * Tests: tests/e2e/test_anon.py
 */
#include "kernel/console.h"
#include "kernel/init.h"
#include "kernel/kfile.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/thread.h"
#include "console/dtrace/dtc.h"
#include "console/shell/shell_tok.h"

#define ANON_FILE ".sonde/anon"

static struct dtc *anon;                 /* the boot's enabling, until claimed */
static char *anon_line, *anon_wordbuf;   /* its command line and words (argv points there) */

/* anon_defaults: the options a dtrace command starts with (as cmd_dtrace sets them). */
static void anon_defaults(struct dtc *d)
{
	dtrace_opts_default(&d->dc_ov);
	d->dc_switchrate_ns = NSEC_PER_SEC;
	d->dc_aggrate_ns = NSEC_PER_SEC;
	d->dc_stackindent = 14;
}

/* anon_words: the saved command line into words (shell quoting); argc, 0 on error. */
static int anon_words(const char *line, struct shell_words *w)
{
	const char *p = line;

	w->sw_bufsize = strlen(line) + 1;
	w->sw_buf = kmalloc(w->sw_bufsize);
	if (w->sw_buf == NULL || shell_tok_next(&p, w) != SHTOK_OK || w->sw_argc < 1)
		return 0;
	return w->sw_argc;
}

/* anon_start: parse, compile, enable and go; -1 on success, else the status. */
static int anon_start(struct dtc *d, struct shell_words *w)
{
	int rc = dtc_parse_args(d, w->sw_argc, w->sw_argv);

	if (rc < 0 && d->dc_ndescs == 0) {
		dtc_err("dtrace: anonymous enabling: no probe descriptions\n");
		rc = 1;
	}
	if (rc < 0)
		rc = dtc_compile(d);
	d->dc_ov.dov_deadman_ns = 0;            /* no consumer asks for status until the claim */
	if (rc < 0)
		rc = dtc_trace_start(d, false);
	return rc;
}

void dtrace_anon_boot(void)
{
	const struct kfile *kf = kfile_lookup(ANON_FILE);
	struct shell_words w = { 0 };
	struct dtc *d;

	if (kf == NULL)
		return;
	char *line = kmalloc((size_t)kf->kf_size + 1);
	d = kzalloc(sizeof(*d));
	if (line == NULL || d == NULL) {
		dtc_err("dtrace: anonymous enabling: out of memory\n");
		kfree(line);
		kfree(d);
		return;
	}
	memcpy(line, kf->kf_data, kf->kf_size);
	line[kf->kf_size] = 0;
	anon_defaults(d);
	int rc = anon_words(line, &w) ? anon_start(d, &w) : 1;
	if (rc < 0) {
		d->dc_intr_base = console_interrupt_count();
		anon = d;                        /* the words stay: operands point into them */
		anon_line = line;
		anon_wordbuf = w.sw_buf;
		return;
	}
	dtc_err("dtrace: anonymous enabling in %s failed: not enabled\n", ANON_FILE);
	dtc_free(d);
	kfree(w.sw_buf);
	kfree(line);
}

int dtc_anon_claim(struct dtc *d)
{
	struct dtc *a = anon;

	if (d->dc_ndescs > 0) {                     /* libdtrace's EDT_ISANON */
		dtc_err("dtrace: could not enable tracing: Can't claim anonymous state and "
		        "enable probes\n");
		return 1;
	}
	if (a == NULL) {
		dtc_err("dtrace: could not enable tracing: No anonymous tracing state\n");
		return 1;
	}
	anon = NULL;                             /* claimed: never again */
	a->dc_quiet |= d->dc_quiet;
	a->dc_json |= d->dc_json;
	a->dc_follow_once = d->dc_compile_only;        /* -ae: what there is, then exit */
	a->dc_intr_base = d->dc_intr_base;
	thread_set_untraced(true);
	thread_set_prompt(true);                       /* as dtc_trace_start's consumer */
	int rc = dtc_trace_follow(a);
	dtc_free(a);
	kfree(anon_wordbuf);
	kfree(anon_line);
	anon_line = anon_wordbuf = NULL;
	return rc;
}
