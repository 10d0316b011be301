/*
 * dtc_proc.c - the processes dtrace creates: -c's command.
 *
 * As libdtrace does for dtrace(1M): the command is created before the
 * program is compiled (its id is $target) and held until tracing starts,
 * tracing stops when the command ends, and when dtrace ends first (exit(),
 * Ctrl-C, a full buffer, the deadman) the command it created is killed and
 * reaped before dtrace returns.  A process dtrace created never outlives it;
 * one it grabbed (-p PID) is let go instead: $target is its pid and
 * tracing ends when it exits.  A process (a program, or -p's) that ends
 * by itself is reported on standard error, "dtrace: pid N has exited", as
 * dtrace(1M) does, unless quiet (-q, as DTrace's notices).  Its program's
 * image names the user addresses printf's %A prints (dtc_proc_image: the
 * one it runs, or the last one seen, from tracing's start on).
 *
 * A program ("/bin/pingpong 10") is a process, created held
 * (proc_spawn_held) so that $target is its pid before compiling, and
 * released at go; a thread of the command's own, "dtrace -c", waits for
 * it as the shell's foreground does.  Anything else runs in that thread:
 * one workload in the foreground ("spin 100" or "run spin 100"), or any
 * other shell command line.  Killing it is thread_kill() through
 * wl_stop(): the waiter sends the program SIGINT, a workload notices
 * within a round (wl_should_stop), a shell line at its next command or in
 * its sleeps.  What a shell line starts in the background with `run` is
 * not the command's own (as the children of `sh -c 'x &'` are not
 * dtrace's) and keeps running.
 *
 * The dtrace command is itself a process to the D programs it runs: while
 * it runs, its thread is called "dtrace" and has a pid (its tid), so
 * execname and pid in BEGIN and END are the consumer's own.
 *
 * Context: the consumer's thread, except proc_thread (the command's).
 *
 * Tests: tests/d/consumer, tests/d/proc; tests/e2e/test_proc.py
 */
#include "kernel/kfile.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/proc.h"
#include "kernel/thread.h"
#include "console/dtrace/dtc.h"
#include "console/shell/shell.h"
#include "console/workloads/workload.h"

void dtc_process_enter(struct dtc *d)
{
	struct thread *t = curthread();

	kstrlcpy(d->dc_saved_name, t->t_name, sizeof(d->dc_saved_name));
	d->dc_saved_pid = t->t_pid;
	thread_set_process("dtrace", (uint64_t)proc_pid_reserve());   /* a pid no process has */
}

void dtc_process_leave(struct dtc *d)
{
	thread_set_process(d->dc_saved_name, d->dc_saved_pid);
}

uint64_t dtc_process_pid(void)
{
	return curthread()->t_pid;
}

#define DTC_PROC_ARGS 32

struct dtc_proc {
	const char *dp_line;
	uint64_t dp_tid;
	volatile bool dp_done;       /* set by the command's thread as its last act */
	volatile bool dp_go;         /* dtc_proc_start: tracing has started */
	int dp_status;
	int dp_pid;                  /* a /bin program: its process (held until go); else 0 */
	bool dp_grabbed;             /* -p: a running process, not ours: no thread, never killed */
	uint64_t dp_image;           /* the image it ran when last looked at (dtc_proc_image) */
	char *dp_words;              /* its command line, split */
	char *dp_argv[DTC_PROC_ARGS + 1];
};

/*
 * proc_workload: is line one workload ("spin 100", or "run spin 100": run
 * here, in the foreground, not in the background as `run` would)?  Fills its
 * parameters.  Anything else is a shell command line.
 */
static const struct workload *proc_workload(const char *line, struct wl_params *p)
{
	char word[32];
	size_t n = 0;

	if (strncmp(line, "run ", 4) == 0)
		line += 4;
	while (*line == ' ')
		line++;
	while (line[n] && line[n] != ' ' && n + 1 < sizeof(word)) {
		word[n] = line[n];
		n++;
	}
	word[n] = 0;
	*p = (struct wl_params){ 0, false };
	const char *rest = line + n;
	while (*rest == ' ')
		rest++;
	if (*rest != 0 && !kstrtou64(rest, &p->wp_arg))
		return NULL;                    /* more than a count: the shell's business */
	p->wp_given = *rest != 0;
	return wl_find(word);
}

bool dtc_proc_exists(const char *line)
{
	struct wl_params p;
	char word[32];
	size_t n = 0;

	if (proc_workload(line, &p) != NULL)
		return true;
	while (*line == ' ')
		line++;
	while (line[n] && line[n] != ' ' && line[n] != ';' && n + 1 < sizeof(word)) {
		word[n] = line[n];
		n++;
	}
	word[n] = 0;
	if (strchr(word, '/') != NULL)          /* a program: a file of the boot archive */
		return kfile_lookup(word) != NULL;
	return shell_cmd_find(word) != NULL;
}

/*
 * proc_program_split: is line one program ("/bin/x a b", no ';')?  Then
 * its words into pr->dp_argv (a kmalloc'd copy); false otherwise.
 */
static bool proc_program_split(struct dtc_proc *pr, const char *line)
{
	int argc = 0;

	while (*line == ' ')
		line++;
	size_t len = strlen(line);
	if (*line != '/' || strchr(line, ';') != NULL || (pr->dp_words = kmalloc(len + 1)) == NULL)
		return false;
	memcpy(pr->dp_words, line, len + 1);
	for (char *w = pr->dp_words; *w != 0 && argc < DTC_PROC_ARGS;) {
		pr->dp_argv[argc++] = w;
		while (*w != 0 && *w != ' ')
			w++;
		while (*w == ' ')
			*w++ = 0;
	}
	pr->dp_argv[argc] = NULL;
	return true;
}

/* proc_program_end: the held process of pr killed (if never run), released, reaped quietly. */
static void proc_program_end(struct dtc_proc *pr)
{
	int status;

	proc_kill(pr->dp_pid, SIGKILL);
	proc_release(pr->dp_pid);
	proc_wait(pr->dp_pid, &status, NULL);
}

static void proc_thread(void *arg)
{
	struct dtc_proc *pr = arg;
	struct wl_params p;
	const struct workload *w = pr->dp_pid > 0 ? NULL : proc_workload(pr->dp_line, &p);

	while (!pr->dp_go) {                /* created before compiling ($target), held until go */
		if (thread_should_exit()) {
			if (pr->dp_pid > 0)
				proc_program_end(pr);
			pr->dp_done = true;
			return;
		}
		thread_sleep_ns(NSEC_PER_MSEC);
	}
	if (pr->dp_pid > 0) {               /* as the shell runs it in the foreground */
		proc_release(pr->dp_pid);
		pr->dp_status = shell_program_wait(pr->dp_argv[0], pr->dp_pid);
	} else {
		pr->dp_status = w != NULL ? w->wl_main(&p) : shell_run_line(pr->dp_line);
	}
	pr->dp_done = true;                 /* pr is not touched after this */
}

/* proc_free: pr and what it holds. */
static void proc_free(struct dtc_proc *pr)
{
	kfree(pr->dp_words);
	kfree(pr);
}

struct dtc_proc *dtc_proc_create(const char *line)
{
	struct dtc_proc *pr = kzalloc(sizeof(*pr));

	if (pr == NULL)
		return NULL;
	pr->dp_line = line;
	if (proc_program_split(pr, line)) {
		char why[160];
		int argc = 0;
		while (pr->dp_argv[argc] != NULL)
			argc++;
		pr->dp_pid = proc_spawn_held(pr->dp_argv[0], argc, pr->dp_argv, why, sizeof(why));
		if (pr->dp_pid < 0) {
			dtc_err("dtrace: failed to execute %s: %s\n", pr->dp_argv[0],
			        pr->dp_pid == -ENOENT ? "No such file or directory" :
			        why[0] ? why : "cannot start");
			proc_free(pr);
			return NULL;
		}
	}
	pr->dp_tid = thread_spawn("dtrace -c", proc_thread, pr);
	if (pr->dp_tid == 0) {
		if (pr->dp_pid > 0)
			proc_program_end(pr);
		proc_free(pr);
		return NULL;
	}
	return pr;
}

struct dtc_proc *dtc_proc_grab(int pid)
{
	struct dtc_proc *pr;

	if (proc_kill(pid, 0) != 0 || (pr = kzalloc(sizeof(*pr))) == NULL)
		return NULL;                    /* (signal 0: is it alive?) */
	pr->dp_pid = pid;
	pr->dp_grabbed = true;
	return pr;
}

void dtc_proc_start(struct dtc_proc *pr)
{
	dtc_proc_image(pr);                     /* known even if it ends before the first drain */
	pr->dp_go = true;
}

uint64_t dtc_proc_id(const struct dtc_proc *pr)
{
	return pr->dp_pid > 0 ? (uint64_t)pr->dp_pid : pr->dp_tid;
}

bool dtc_proc_done(const struct dtc_proc *pr)
{
	if (pr->dp_grabbed)
		return proc_kill(pr->dp_pid, 0) != 0;   /* exited (a zombie or gone) */
	return pr->dp_done;
}

uint64_t dtc_proc_image(struct dtc_proc *pr)
{
	struct proc *p = pr != NULL && pr->dp_pid > 0 ? proc_lookup(pr->dp_pid) : NULL;

	if (p != NULL && p->p_image != NULL)
		pr->dp_image = (uint64_t)(uintptr_t)p->p_image;   /* boot-archive files live for ever */
	return pr != NULL ? pr->dp_image : 0;
}

uint64_t dtc_uimage(struct dtc *d)
{
	return d->dc_proc != NULL ? dtc_proc_image(d->dc_proc) : d->dc_uimage;
}

void dtc_proc_notice(const struct dtc_proc *pr, bool quiet)
{
	if (pr != NULL && pr->dp_pid > 0 && !quiet && dtc_proc_done(pr))
		dtc_err("dtrace: pid %d has exited\n", pr->dp_pid);
}

int dtc_proc_release(struct dtc_proc *pr)
{
	if (pr == NULL)
		return 0;
	if (pr->dp_grabbed) {                   /* let go: it is not ours to kill or reap */
		proc_free(pr);
		return 0;
	}
	if (!pr->dp_done)
		wl_stop(pr->dp_tid);            /* kill it, and wait until it is gone */
	else
		thread_join(pr->dp_tid);        /* reap it */
	int status = pr->dp_status;
	proc_free(pr);
	return status;
}
