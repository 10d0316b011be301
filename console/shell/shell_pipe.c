/*
 * shell_pipe.c - pipelines and redirections: `a | b | c`, `> f`, `>> f`, `< f`, `&`.
 *
 * Theory.  The tokenizer marks operators (shell_tok.h); a command with
 * any is split here into stages at each `|`, each stage's `<`, `>` and
 * `>>` taking the next word as a file name.  Stages are of two kinds:
 *   - programs (a path, shell_proc.c): each becomes a process, created
 *     held, its fds 0 and 1 set to its pipe ends or files, then released,
 *     so all of a pipeline's programs run at once, as in sh;
 *   - shell commands (dtrace, ps, help, ...): they run in the kernel, on
 *     the shell's thread, one after the other once every program has
 *     started; their output goes to their pipe or file through the
 *     thread's standard output (kernel/kstdio.c).  No shell command reads
 *     standard input, so a command's input (`<`, a pipe) is opened and
 *     checked, then not read; a command piped into another command gets
 *     /dev/null as its output, since the other would not read it.
 * When a command's pipe loses its reader (`dtrace -l | /bin/head -n 3`),
 * its writes fail with EPIPE and shell_interrupted() turns true, so dtrace
 * stops cleanly as on Ctrl-C, without the "^C".  A program's writes to a
 * pipe without a reader kill it with SIGPIPE, which the shell does not
 * report (as sh does not).
 *
 * A stage `runas UID[:GID] /prog args` is the program /prog args, given
 * those ids while it is held (shell_proc.c's runas does the same alone).
 *
 * A pipeline run while the shell's output is itself redirected (dtrace's
 * system() inside `dtrace ... | /bin/wc`) sends its last stage's output
 * there too, as a child of a Unix shell inherits its standard output.
 *
 * The pipeline's status is its last stage's.  Ctrl-C while it runs sends
 * SIGINT to each of its processes.  A trailing `&` runs a pipeline of
 * programs in the background, as a job (shell_jobs.c: "[1] PID"), its
 * standard input /dev/null unless redirected (the console's input is the
 * shell's, as sh without job control does); `&` ends its command, so in
 * `a & b` the shell goes on to b at once, a running (shell_tok.h).
 *
 * Context: the shell's thread, thread context.  Kernel only (the host
 * tests see a stub that refuses operators).
 *
 * Tests: tests/e2e/test_shell_pipes.py
 */
#include "kernel/console.h"
#include "kernel/file.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/proc.h"
#include "kernel/thread.h"
#include "kernel/time.h"
#include "console/shell/shell.h"
#include "console/shell/shell_tok.h"

#define PIPE_STAGES_MAX 8
#define PIPE_WAIT_NS (10 * NSEC_PER_MSEC)

struct stage {
	int st_argc;
	char *st_argv[SHELL_MAX_ARGS + 1];
	const char *st_in, *st_out;  /* < and > / >> file names, or NULL */
	bool st_append;              /* >> */
	bool st_program;             /* a path: a process, not a shell command */
	bool st_runas;               /* `runas UID[:GID] /prog`: the process gets st_cred */
	struct cred st_cred;
	struct file *st_fin, *st_fout;   /* its standard input and output (NULL: the console) */
	int st_pid;                  /* the process, once started (0: none) */
	int st_status;
};

struct pipeline {
	struct stage pl_st[PIPE_STAGES_MAX];
	int pl_n;
	bool pl_bg;
	volatile bool pl_watch_stop;     /* the watcher's signal to end */
};

/* --- parsing ------------------------------------------------------------------------ */

/*
 * pipe_parse: w's words into stages; SHELL_OK or the status of an error.
 * The tokenizer has checked where the operators stand (shell_tok.h): every
 * stage has a command word, every redirection its file name, and `&`, if
 * there, is the last word.
 */
static int pipe_parse(const struct shell_words *w, struct pipeline *pl)
{
	struct stage *st = &pl->pl_st[0];

	memset(pl, 0, sizeof(*pl));
	pl->pl_n = 1;
	for (int i = 0; i < w->sw_argc; i++) {
		enum shell_op op = (enum shell_op)w->sw_op[i];
		if (op == SHOP_WORD) {
			st->st_argv[st->st_argc++] = w->sw_argv[i];
		} else if (op == SHOP_PIPE) {
			if (pl->pl_n == PIPE_STAGES_MAX) {
				kprintf_err("sonde: more than %d commands in a pipeline\n", PIPE_STAGES_MAX);
				return SHELL_USAGE;
			}
			st = &pl->pl_st[pl->pl_n++];
		} else if (op == SHOP_BG) {
			pl->pl_bg = true;
		} else {
			const char *name = w->sw_argv[++i];
			if (op == SHOP_IN) {
				st->st_in = name;
			} else {
				st->st_out = name;
				st->st_append = op == SHOP_APPEND;
			}
		}
	}
	for (int k = 0; k < pl->pl_n; k++) {
		struct stage *s = &pl->pl_st[k];
		s->st_argv[s->st_argc] = NULL;
		if (strcmp(s->st_argv[0], "runas") == 0) {    /* a program, with other ids */
			int r = shell_runas_check(s->st_argc, s->st_argv, &s->st_cred);
			if (r != SHELL_OK)
				return r;
			s->st_runas = true;
			s->st_argc -= 2;
			memmove(s->st_argv, s->st_argv + 2, (size_t)(s->st_argc + 1) * sizeof(s->st_argv[0]));
		}
		s->st_program = shell_is_program(s->st_argv[0]);
		if (s->st_runas && !s->st_program)       /* a #! script: the shell's own, no ids to give */
			return shell_error("runas", "%s: not a program", s->st_argv[0]);
		if (pl->pl_bg && !s->st_program) {
			kprintf_err("sonde: %s: a shell command cannot run in the background\n", s->st_argv[0]);
			return SHELL_USAGE;
		}
	}
	return SHELL_OK;
}

/* --- files ---------------------------------------------------------------------------- */

/* pipe_open_redirs: open every stage's < and > files; SHELL_OK or SHELL_ERR (message printed). */
static int pipe_open_redirs(struct pipeline *pl)
{
	for (int k = 0; k < pl->pl_n; k++) {
		struct stage *s = &pl->pl_st[k];
		int r = 0;
		if (s->st_in != NULL)
			r = file_open(s->st_in, 0, &s->st_fin);
		if (r == 0 && s->st_out != NULL)
			r = file_open(s->st_out, FILE_O_WRONLY | FILE_O_CREAT |
			              (s->st_append ? FILE_O_APPEND : FILE_O_TRUNC), &s->st_fout);
		if (r < 0) {
			kprintf_err("sonde: %s: %s\n", s->st_fin == NULL && s->st_in != NULL ? s->st_in : s->st_out,
			            file_strerror(r));
			return SHELL_ERR;
		}
	}
	return SHELL_OK;
}

/* pipe_connect: a pipe (or /dev/null) between each stage and the next, where no redirection says otherwise. */
static int pipe_connect(struct pipeline *pl)
{
	for (int k = 0; k + 1 < pl->pl_n; k++) {
		struct stage *a = &pl->pl_st[k], *b = &pl->pl_st[k + 1];
		struct file *rd = NULL, *wr = NULL;
		if (!b->st_program) {
			wr = file_dev_open("null");        /* a command reads no input */
		} else if (pipe_create(&rd, &wr) < 0) {
			kprintf_err("sonde: out of memory for a pipe\n");
			return SHELL_ERR;
		}
		if (a->st_fout == NULL)
			a->st_fout = file_ref(wr);
		if (b->st_fin == NULL && rd != NULL)
			b->st_fin = file_ref(rd);
		file_unref(rd);
		file_unref(wr);
	}
	return SHELL_OK;
}

/* pipe_close_all: drop the shell's references to every stage's files. */
static void pipe_close_all(struct pipeline *pl)
{
	for (int k = 0; k < pl->pl_n; k++) {
		file_unref(pl->pl_st[k].st_fin);
		file_unref(pl->pl_st[k].st_fout);
		pl->pl_st[k].st_fin = pl->pl_st[k].st_fout = NULL;
	}
}

/* --- running -------------------------------------------------------------------------- */

/* pipe_start: stage s as a held process with its files, then let it run; false if it did not start. */
static bool pipe_start(struct stage *s)
{
	char why[160];
	int pid = proc_spawn_held(s->st_argv[0], s->st_argc, s->st_argv, why, sizeof(why));

	if (pid < 0) {
		s->st_status = shell_spawn_error(s->st_argv[0], pid, why);
		return false;
	}
	if (s->st_runas)
		proc_cred_set(pid, &s->st_cred);
	if (s->st_fin != NULL)
		proc_file_set(pid, 0, s->st_fin);
	if (s->st_fout != NULL)
		proc_file_set(pid, 1, s->st_fout);
	s->st_pid = pid;
	proc_release(pid);
	return true;
}

/* pipe_run_command: stage s, a shell command, with its output where the pipeline says. */
static void pipe_run_command(struct stage *s)
{
	struct file *old = kstdio_set(s->st_fout);

	s->st_status = shell_run_command(s->st_argc, s->st_argv);
	int err = kstdout_error();
	kstdio_set(old);
	if (err != 0 && err != EPIPE) {
		kprintf_err("sonde: %s: write error: %s\n", s->st_argv[0], file_strerror(-err));
		if (s->st_status == SHELL_OK)
			s->st_status = SHELL_ERR;
	}
	file_unref(s->st_fout);              /* the reader sees the end of its input */
	file_unref(s->st_fin);               /* the writer before it gets EPIPE */
	s->st_fout = s->st_fin = NULL;
}

/* pipe_kill_all: SIGINT to every process of pl (Ctrl-C). */
static void pipe_kill_all(struct pipeline *pl)
{
	for (int k = 0; k < pl->pl_n; k++)
		if (pl->pl_st[k].st_pid > 0)
			proc_kill(pl->pl_st[k].st_pid, SIGINT);
}

/*
 * pipe_watch: a thread of its own while the shell's thread runs a command
 * of the pipeline: that thread may be asleep in a pipe write (its reader
 * not reading), so this one passes Ctrl-C on to the processes; once they
 * are gone the write fails with EPIPE and the command ends.
 */
static void pipe_watch(void *arg)
{
	struct pipeline *pl = arg;

	while (!pl->pl_watch_stop) {
		if (console_interrupted()) {
			pipe_kill_all(pl);
			break;
		}
		thread_sleep_ns(2 * PIPE_WAIT_NS);
	}
	thread_exit(0);
}

/* pipe_run_commands: the shell commands of pl, in order, a watcher passing Ctrl-C to its processes. */
static void pipe_run_commands(struct pipeline *pl)
{
	bool procs = false, cmds = false;
	uint64_t watcher = 0;

	for (int k = 0; k < pl->pl_n; k++) {
		procs |= pl->pl_st[k].st_pid > 0;
		cmds |= !pl->pl_st[k].st_program;
	}
	pl->pl_watch_stop = false;
	if (procs && cmds)
		watcher = thread_spawn("shell-pipe-watch", pipe_watch, pl);
	for (int k = 0; k < pl->pl_n; k++)
		if (!pl->pl_st[k].st_program)
			pipe_run_command(&pl->pl_st[k]);
	pl->pl_watch_stop = true;
	if (watcher != 0)
		thread_join(watcher);
}

/* pipe_wait_all: wait for every process of pl; Ctrl-C sends each SIGINT. */
static void pipe_wait_all(struct pipeline *pl)
{
	bool sent = false;

	for (;;) {
		bool all = true;
		for (int k = 0; k < pl->pl_n; k++)
			if (pl->pl_st[k].st_pid > 0 && !proc_wait_done(pl->pl_st[k].st_pid))
				all = false;
		if (all)
			break;
		if (!sent && (console_interrupted() || thread_should_exit())) {
			pipe_kill_all(pl);
			sent = true;
		}
		thread_sleep_ns(PIPE_WAIT_NS);
	}
	for (int k = 0; k < pl->pl_n; k++) {
		struct stage *s = &pl->pl_st[k];
		if (s->st_pid > 0)
			s->st_status = shell_program_reap(s->st_argv[0], s->st_pid);
	}
}

/* pipe_cmdline: the pipeline's words again, for `jobs` ("a x | b"). */
static void pipe_cmdline(const struct pipeline *pl, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int k = 0; k < pl->pl_n; k++)
		for (int i = 0; i < pl->pl_st[k].st_argc && n < size; i++)
			n += (size_t)ksnprintf(buf + n, size - n, "%s%s%s", k > 0 && i == 0 ? " | " : "",
			                       i > 0 ? " " : "", pl->pl_st[k].st_argv[i]);
}

/* pipe_background: every stage started; a job of the shell's (shell_jobs.c), or, with no room, detached. */
static int pipe_background(struct pipeline *pl)
{
	int pids[PIPE_STAGES_MAX], n = 0;
	char cmd[80];

	for (int k = 0; k < pl->pl_n; k++)
		if (pl->pl_st[k].st_pid > 0)
			pids[n++] = pl->pl_st[k].st_pid;
	pipe_cmdline(pl, cmd, sizeof(cmd));
	if (n == 0 || shell_jobs_add(pids, n, cmd))
		return n == 0 ? pl->pl_st[pl->pl_n - 1].st_status : SHELL_OK;
	for (int k = 0; k < n; k++) {
		proc_detach(pids[k]);
		kprintf("[%d]\n", pids[k]);
	}
	return SHELL_OK;
}

/* pipe_run: parse, connect, start, run and wait for one pipeline; its status. */
static int pipe_run(const struct shell_words *w, struct pipeline *pl)
{
	int status = pipe_parse(w, pl);

	if (status != SHELL_OK)
		return status;
	if ((status = pipe_open_redirs(pl)) == SHELL_OK)
		status = pipe_connect(pl);
	struct stage *last = &pl->pl_st[pl->pl_n - 1];
	if (status == SHELL_OK && last->st_fout == NULL && kstdio_get() != NULL)
		last->st_fout = file_ref(kstdio_get());    /* inside a redirected command (dtrace's system()): its output */
	if (status == SHELL_OK && pl->pl_bg && pl->pl_st[0].st_fin == NULL)
		pl->pl_st[0].st_fin = file_dev_open("null");   /* the console's input stays the shell's */
	if (status != SHELL_OK) {
		pipe_close_all(pl);
		return status;
	}
	for (int k = 0; k < pl->pl_n; k++)
		if (pl->pl_st[k].st_program)
			pipe_start(&pl->pl_st[k]);
	for (int k = 0; k < pl->pl_n; k++) {       /* the processes hold their own references */
		if (pl->pl_st[k].st_program) {
			file_unref(pl->pl_st[k].st_fin);
			file_unref(pl->pl_st[k].st_fout);
			pl->pl_st[k].st_fin = pl->pl_st[k].st_fout = NULL;
		}
	}
	if (pl->pl_bg) {
		status = pipe_background(pl);
		pipe_close_all(pl);
		return status;
	}
	pipe_run_commands(pl);
	pipe_close_all(pl);
	pipe_wait_all(pl);
	if (console_interrupted()) {
		console_input_flush_interrupt();
		console_clear_interrupt();
	}
	return pl->pl_st[pl->pl_n - 1].st_status;
}

int shell_pipeline_run(const struct shell_words *w)
{
	struct pipeline *pl = kzalloc(sizeof(*pl));   /* not static: dtrace's system() may run one inside another */

	if (pl == NULL) {
		kprintf_err("sonde: out of memory\n");
		return SHELL_ERR;
	}
	int status = pipe_run(w, pl);
	kfree(pl);
	return status;
}
