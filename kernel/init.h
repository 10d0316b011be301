/*
 * init.h - what the kernel starts once it is up: the console program.
 *
 * The kernel defines this interface and console/shell implements it, so the
 * kernel depends on no userland header (the include rules that
 * tools/check_deps.sh checks).
 */
#ifndef SONDE_INIT_H
#define SONDE_INIT_H

/* shell_thread: the interactive shell on the console; never returns. */
void shell_thread(void *arg);

/* shell_run_line: run one command line; returns its exit status (sh's conventions). */
int shell_run_line(const char *line);

/*
 * dtrace_anon_boot: anonymous tracing: enable the program the boot module
 * names (.sonde/anon, written by tools/dtrace -A) before the first thread
 * starts, to be claimed later by dtrace -a (console/dtrace/dtc_anon.c).
 * Nothing if there is none.  Boot context, after the providers are up.
 */
void dtrace_anon_boot(void);

/* dtrace_init: the tracing framework and its dtrace provider (trace/dtrace.h). */
void dtrace_init(void);

#endif
