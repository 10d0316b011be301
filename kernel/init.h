/*
 * init.h - what the kernel starts once it is up: the console program.
 *
 * The kernel defines this interface and userland/shell implements it, so the
 * kernel depends on no userland header (the include rules that
 * tools/check_deps.sh checks).
 */
#ifndef SONDE_INIT_H
#define SONDE_INIT_H

/* shell_thread: the interactive shell on the console; never returns. */
void shell_thread(void *arg);

/* shell_run_line: run one command line; returns its exit status (sh's conventions). */
int shell_run_line(const char *line);

/* dtrace_init: the tracing framework and its dtrace provider (trace/dtrace.h). */
void dtrace_init(void);

#endif
