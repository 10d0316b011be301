/*
 * shell.c - the console shell: read a line, split it, run the commands.
 *
 * Theory.  Three layers, each testable on its own:
 *   1. the line editor (ledit.c) turns console bytes into lines, echoing and
 *      redrawing as it goes; it never blocks and never calls the kernel;
 *   2. the tokenizer (shell_tok.c) turns a line into commands and words;
 *   3. this file glues them to the console and runs commands, which are
 *      found by name in the "shellcmds" linker section (SHELL_COMMAND());
 *      a word with a '/' that names no command is a program to run as a
 *      process (shell_proc.c); a command with operators (| > >> < &) is
 *      a pipeline (shell_pipe.c).
 *
 * Ctrl-C.  The console delivers Ctrl-C twice: as a byte in the input stream
 * and as a flag (console_interrupted()).  At the prompt the byte cancels the
 * line (the editor prints "^C").  While a typed line runs, the console
 * echoes each Ctrl-C as "^C" and a newline when it arrives, as a terminal
 * in cooked mode does, so nothing here prints it (cmd= lines run without
 * the echo: their Ctrl-C comes from a host terminal that echoed it).  While a command runs nobody reads input, so the command polls the
 * flag (shell_interrupted()); when it stops early the shell discards what
 * was typed before the Ctrl-C, the Ctrl-C byte included, so that it does
 * not also cancel the next prompt; what was typed after it is the next line.  The flag is cleared before every command.  As
 * in sh, an interrupted command also abandons the rest of its line.
 *
 * Output: command results go to standard output (kprintf: the console, or
 * the pipe or file the pipeline gave the shell's thread, kernel/kstdio.c), every error message
 * to the error stream (kprintf_err), which is the console too at the prompt
 * but a separate port when tools/dtrace boots the kernel with stderr=com2.
 *
 * Context: everything here runs in thread context on the shell's thread (or
 * on the boot thread for the cmd= boot option and in self-tests).  Nothing
 * here panics on bad input: errors are one line and a status.
 *
 * Order: the command table, errors, running a command, running a line, and
 * the interactive loop.
 *
 * Tests: tests/unit/shell_cmds_test.c; self-tests shell_run_line_*; make
 *        shell-fuzz
 */
#include "console/shell/shell.h"
#include "console/shell/ledit.h"
#include "console/shell/shell_tok.h"
#include "kernel/klib.h"
#include "kernel/console.h"
#include "kernel/mem.h"
#include "kernel/thread.h"
#include "kernel/time.h"

extern const struct shell_cmd __start_shellcmds[];
extern const struct shell_cmd __stop_shellcmds[];

#define SHELL_SLEEP_SLICE_NS (20 * NSEC_PER_MSEC)

/* --- the command table --------------------------------------------------- */

int shell_cmd_count(void)
{
	return (int)(__stop_shellcmds - __start_shellcmds);
}

const struct shell_cmd *shell_cmd_get(int i)
{
	if (i < 0 || i >= shell_cmd_count())
		return NULL;
	return &__start_shellcmds[i];
}

const struct shell_cmd *shell_cmd_find(const char *name)
{
	for (int i = 0; i < shell_cmd_count(); i++)
		if (strcmp(__start_shellcmds[i].sc_name, name) == 0)
			return &__start_shellcmds[i];
	return NULL;
}

/* --- errors and interruption --------------------------------------------- */

int shell_usage(const char *name)
{
	const struct shell_cmd *cmd = shell_cmd_find(name);

	kprintf_err("usage: %s\n", cmd != NULL ? cmd->sc_usage : name);
	return SHELL_USAGE;
}

int shell_error(const char *argv0, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	kprintf_err("%s: %s\n", argv0, msg);
	return SHELL_ERR;
}

bool shell_interrupted(void)
{
	return console_interrupted() || kstdout_broken();   /* Ctrl-C, or the pipe's reader has gone */
}

bool shell_sleep_ns(unsigned long long ns)
{
	uint64_t deadline = ktime_ns() + ns;

	for (;;) {
		if (shell_interrupted() || thread_should_exit())
			return false;
		uint64_t now = ktime_ns();
		if (now >= deadline)
			return true;
		thread_sleep_ns(MIN(deadline - now, SHELL_SLEEP_SLICE_NS));
	}
}

/* shell_input_flush: after a Ctrl-C, drop what was typed ahead before it (and it). */
static void shell_input_flush(void)
{
	console_input_flush_interrupt();
}

/* --- running commands ---------------------------------------------------- */

/* shell_run_words_program: a path: run it as a process (shell_proc.c), Ctrl-C as for commands. */
static int shell_run_words_program(int argc, char **argv)
{
	console_clear_interrupt();
	int status = shell_run_program(argc, argv);
	if (status == SHELL_INTERRUPTED || console_interrupted()) {
		shell_input_flush();
		console_clear_interrupt();
	}
	return status;
}

bool shell_is_program(const char *word)
{
	return shell_cmd_find(word) == NULL && !shell_interp_file(word) && strchr(word, '/') != NULL;
}

int shell_run_command(int argc, char **argv)
{
	const struct shell_cmd *cmd = shell_cmd_find(argv[0]);

	if (shell_is_program(argv[0]))
		return shell_run_words_program(argc, argv);
	if (cmd == NULL && !shell_interp_file(argv[0])) {
		kprintf_err("sonde: %s: command not found\n", argv[0]);
		return SHELL_NOTFOUND;
	}
	console_clear_interrupt();
	int status = cmd != NULL ? cmd->sc_fn(argc, argv) : shell_interp_run(argc, argv);
	if (kstdout_broken() && !console_interrupted())
		return status;                     /* its reader went away (| /bin/head): no Ctrl-C to clear */
	if (status == SHELL_INTERRUPTED || console_interrupted()) {
		shell_input_flush();
		console_clear_interrupt();
	}
	return status;
}

/* shell_words_alloc: a word list with room for the words of any command of line. */
static struct shell_words *shell_words_alloc(const char *line)
{
	size_t size = 2 * strlen(line) + 1;     /* operators add NULs (shell_tok.h) */
	struct shell_words *w = kmalloc(sizeof(*w) + size);

	if (w != NULL) {
		w->sw_buf = (char *)(w + 1);
		w->sw_bufsize = size;
	}
	return w;
}

int shell_run_line(const char *line)
{
	struct shell_words *w = shell_words_alloc(line);
	int status = SHELL_OK;

	if (w == NULL) {
		kprintf_err("sonde: out of memory\n");
		return SHELL_ERR;
	}
	enum shell_tok_err err = shell_tok_check(line, w);
	if (err == SHTOK_SYNTAX) {
		kprintf_err("sonde: syntax error near '%s'\n", w->sw_near);
		kfree(w);
		return SHELL_USAGE;
	}
	if (err != SHTOK_OK) {
		kprintf_err("sonde: syntax error: %s\n", shell_tok_strerror(err));
		kfree(w);
		return SHELL_USAGE;
	}
	while (*line != '\0' && status != SHELL_INTERRUPTED && !thread_should_exit()) {
		shell_tok_next(&line, w);
		if (w->sw_nops > 0 || (kstdout_redirected() && w->sw_argc > 0))
			status = shell_pipeline_run(w);    /* operators, or an output to inherit (shell_pipe.c) */
		else if (w->sw_argc > 0)
			status = shell_run_command(w->sw_argc, w->sw_argv);
	}
	kfree(w);
	return status;
}

/* --- the interactive loop ------------------------------------------------ */

/*
 * The editor is large (history: 72 KiB); it is allocated once when the
 * shell starts, neither on the thread's stack nor in the image (whose size
 * counts against sparc64's 4 MiB).
 */
static struct ledit *shell_ledit;

static void shell_console_write(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	console_write(s, n);
}

/*
 * shell_run_line_echoing: a typed line, with the console echoing Ctrl-C
 * as "^C" while it runs (a terminal in cooked mode); a Ctrl-C that came
 * as the line ended is dropped with what was typed before it, as if the
 * command had seen it, so that it does not cancel the next prompt too.
 */
static void shell_run_line_echoing(const char *line)
{
	console_echo_interrupt(true);
	shell_run_line(line);
	console_echo_interrupt(false);
	if (console_interrupted()) {
		shell_input_flush();
		console_clear_interrupt();
	}
}

/* shell_read_line: feed console bytes to the editor until it reports an event. */
static enum ledit_event shell_read_line(struct ledit *le)
{
	enum ledit_event ev = LEDIT_NONE;

	ledit_start(le);
	while (ev == LEDIT_NONE) {
		int c = console_getc();
		if (c >= 0)
			ev = ledit_feed(le, (uint8_t)c);
	}
	return ev;
}

void shell_thread(void *arg)
{
	(void)arg;
	while ((shell_ledit = kmalloc(sizeof(*shell_ledit))) == NULL) {
		kprintf_err("sonde: no memory for the line editor; trying again in 1 s\n");
		thread_sleep_ns(1000000000ULL);
	}
	ledit_init(shell_ledit, SHELL_PROMPT, shell_console_write, NULL);
	kprintf("Sonde shell; type 'help' for commands.\n");
	for (;;) {
		shell_jobs_notify();                   /* "[1]+  Done ..." before the prompt, as sh */
		switch (shell_read_line(shell_ledit)) {
		case LEDIT_LINE:
			shell_run_line_echoing(ledit_line(shell_ledit));
			break;
		case LEDIT_TOOLONG:
			kprintf_err("sonde: line too long (at most %d bytes)\n", LEDIT_LINE_MAX - 1);
			break;
		case LEDIT_CANCEL:
			console_clear_interrupt();
			break;
		case LEDIT_NONE:
			break;
		}
	}
}
