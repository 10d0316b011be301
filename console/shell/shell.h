/*
 * shell.h - the console shell: entry points and command registration.
 *
 * The shell reads lines from the serial console (prompt "sonde# "), splits
 * them into commands and words like sh(1) (see shell_tok.h), and runs each
 * command.  Commands are registered from anywhere in the tree with
 * SHELL_COMMAND(); the linker collects them into the "shellcmds" section, so
 * adding a command (dtrace, later) never touches the shell itself:
 *
 *   static int cmd_hello(int argc, char **argv) { kprintf("hi\n"); return 0; }
 *   SHELL_COMMAND(hello, cmd_hello, "hello", "print a greeting");
 *
 * A command returns an exit status: SHELL_OK, SHELL_ERR (it failed),
 * SHELL_USAGE (bad arguments; return shell_usage(argv[0])), or
 * SHELL_INTERRUPTED (Ctrl-C).  Commands run on the shell's thread in thread
 * context and may sleep; a long-running command polls shell_interrupted().
 */
#ifndef SONDE_SHELL_H
#define SONDE_SHELL_H

#include <stdbool.h>

#define SHELL_PROMPT "sonde# "

enum shell_status {
	SHELL_OK = 0,
	SHELL_ERR = 1,
	SHELL_USAGE = 2,
	SHELL_NOTFOUND = 127,        /* unknown command, as in sh */
	SHELL_INTERRUPTED = 130,     /* 128 + SIGINT, as in sh */
};

typedef int shell_cmd_fn(int argc, char **argv);

struct shell_cmd {
	const char *sc_name;
	shell_cmd_fn *sc_fn;
	const char *sc_usage;        /* "sym ADDR|NAME" */
	const char *sc_help;         /* one line, no trailing period */
};

#define SHELL_COMMAND(name, fn, usage, help) \
	static const struct shell_cmd shell_cmdent_##name \
		__attribute__((used, section("shellcmds"), aligned(8))) = \
		{ .sc_name = #name, .sc_fn = (fn), .sc_usage = (usage), .sc_help = (help) }

/*
 * shell_thread: the interactive shell on the console; never returns.  Thread
 * context (the kernel starts it as a thread of its own).
 */
void shell_thread(void *arg);

/*
 * shell_run_line: run one command line (commands separated by ';') and
 * return the exit status of the last command.  A line that does not parse
 * runs nothing and returns SHELL_USAGE; a command stopped by Ctrl-C ends the
 * line with SHELL_INTERRUPTED.  Thread context.
 */
int shell_run_line(const char *line);

/*
 * shell_interp_run: argv[0] names a boot file starting with "#!": run the
 * command its first line names (the last component of the path) with that
 * line's words, then the file's path and argv[1..], as exec(2) runs an
 * interpreter file ("#!/usr/sbin/dtrace -qs").  SHELL_NOTFOUND if argv[0]
 * is not such a file.  Thread context (shell_files.c).
 */
int shell_interp_run(int argc, char **argv);
bool shell_interp_file(const char *path);   /* a boot file starting with "#!"? */

/*
 * shell_run_program: run argv[0], a path in the boot archive, as a process
 * in the foreground (shell_proc.c); returns its exit status, 128 + signal
 * if a signal killed it, 127 if there is no such file.  Thread context.
 */
int shell_run_program(int argc, char **argv);
/*
 * shell_program_wait: wait for process pid (started from path) as the
 * foreground waits: Ctrl-C sends it SIGINT, a fault is reported as a Unix
 * shell reports it; returns the same status.  Thread context.
 */
int shell_program_wait(const char *path, int pid);
/*
 * shell_program_reap: collect process pid (started from path, exited:
 * proc_wait_done) and report its end as shell_program_wait does; its status.
 */
int shell_program_reap(const char *path, int pid);
/* shell_spawn_error: say why path did not start (err from proc_spawn); the status sh gives. */
int shell_spawn_error(const char *path, int err, const char *why);

/*
 * shell_is_program: does a command word run a program (a path that names
 * no shell command nor interpreter file)?  shell_run_command: run one
 * command's words, a shell command or a program, as a line without
 * operators runs it (Ctrl-C handled); its status.  Thread context.
 */
bool shell_is_program(const char *word);

/*
 * shell_runas_check: are argv "runas UID[:GID] /PROG ..."?  SHELL_OK with
 * the ids in *c, or the error printed and its status (shell_proc.c).
 */
struct cred;
int shell_runas_check(int argc, char **argv, struct cred *c);
int shell_run_command(int argc, char **argv);

/*
 * shell_pipeline_run: run one command with operators (| > >> < &) as
 * shell_pipe.c describes; its status (SHELL_USAGE for a syntax error).
 * Thread context, the shell's thread.
 */
struct shell_words;
int shell_pipeline_run(const struct shell_words *w);

/*
 * shell_vfs_ls/shell_vfs_cat: ls and cat of a path outside the boot
 * archive's table (/tmp, /dev), through the kernel's path layer; a shell
 * status.  Thread context (shell_vfs.c).
 */
int shell_vfs_ls(const char *path, bool all, bool lng);
int shell_vfs_cat(const char *path);

/*
 * Background jobs (shell_jobs.c): shell_jobs_add makes processes pids
 * (n of them, a pipeline run with `&`, cmd its words) job number N and
 * prints "[N] PID"; false if the job table is full.  shell_jobs_notify
 * collects the jobs that have ended and says so ("[1]+  Done  cmd"); the
 * interactive loop calls it before each prompt.  Thread context.
 */
bool shell_jobs_add(const int *pids, int n, const char *cmd);
void shell_jobs_notify(void);

/* shell_ps_procs: ps's process table (UID PID PPID S TIME COMMAND) and a blank line, if any process exists. */
void shell_ps_procs(void);

/* shell_cmd_find: the command called name, or NULL. */
const struct shell_cmd *shell_cmd_find(const char *name);

/* shell_cmd_count/shell_cmd_get: iterate over the registered commands (unsorted). */
int shell_cmd_count(void);
const struct shell_cmd *shell_cmd_get(int i);

/* shell_usage: print "usage: <usage>" of the command called name (error stream); returns SHELL_USAGE. */
int shell_usage(const char *name);

/*
 * shell_error: print "<argv0>: <message>" (printf-style) on the error
 * stream and return SHELL_ERR.  The one-line error every command uses.
 */
int shell_error(const char *argv0, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * shell_interrupted: has Ctrl-C been typed since the command started?
 * shell_sleep_ns: sleep, waking early on Ctrl-C; returns false if interrupted.
 */
bool shell_interrupted(void);
bool shell_sleep_ns(unsigned long long ns);

#endif
