/*
 * shell_selftest.c - in-kernel self-tests of the shell (run with `selftest`).
 *
 * The host tests (tests/unit/shell_ledit_test.c, shell_tok_test.c) cover the pure
 * parts in depth; these check that the same code works inside the kernel
 * (freestanding build, kernel heap) and that the command table and the
 * statuses of shell_run_line() are what the boot option cmd= relies on.
 * Commands that print use a '#' first word so that their output reads as a
 * TAP comment.
 *
 * Tests: make selftest-check (it is self-tests shell_*)
 */
#include "console/shell/shell.h"
#include "console/shell/ledit.h"
#include "console/shell/shell_tok.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/selftest.h"

SELFTEST(shell_tok_quotes)
{
	static char buf[128];
	struct shell_words *w = kmalloc(sizeof(*w));
	const char *line = "dtrace -n 'BEGIN { x; }'; echo \"a b\"";

	ST_ASSERT(w != NULL);
	if (w == NULL)
		return;
	w->sw_buf = buf;
	w->sw_bufsize = sizeof(buf);
	ST_ASSERT(shell_tok_next(&line, w) == SHTOK_OK);
	ST_ASSERT(w->sw_argc == 3);
	ST_ASSERT(strcmp(w->sw_argv[2], "BEGIN { x; }") == 0);
	ST_ASSERT(shell_tok_next(&line, w) == SHTOK_OK);
	ST_ASSERT(w->sw_argc == 2 && strcmp(w->sw_argv[1], "a b") == 0);
	ST_ASSERT(*line == '\0');
	ST_ASSERT(shell_tok_check("echo 'open", w) == SHTOK_SQUOTE);
	kfree(w);
}

static void shell_selftest_sink(void *ctx, const char *s, size_t n)
{
	size_t *count = ctx;

	(void)s;
	*count += n;
}

SELFTEST(shell_ledit_edits)
{
	struct ledit *le = kmalloc(sizeof(*le));
	size_t out = 0;
	const char *keys = "hlp\x1b[D\x1b[De\x1b[Fx\b\r";
	enum ledit_event ev = LEDIT_NONE;

	ST_ASSERT(le != NULL);
	if (le == NULL)
		return;
	ledit_init(le, SHELL_PROMPT, shell_selftest_sink, &out);
	ledit_start(le);
	for (const char *k = keys; *k != '\0'; k++)
		ev = ledit_feed(le, (uint8_t)*k);
	ST_ASSERT(ev == LEDIT_LINE);
	ST_ASSERT(strcmp(ledit_line(le), "help") == 0);
	ST_ASSERT(out > 0);
	kfree(le);
}

SELFTEST(shell_commands_registered)
{
	static const char *const names[] = {
		"help", "echo", "uptime", "sleep", "ps", "kill", "mem", "sym",
		"run", "halt", "reboot", "crash", "jobs", "wait", "fg", "df", "sync", "procs", "pmem", "mpstat",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		ST_ASSERT(shell_cmd_find(names[i]) != NULL);
	ST_ASSERT(shell_cmd_find("nosuchcmd") == NULL);
	ST_ASSERT(shell_cmd_get(shell_cmd_count()) == NULL);
}

SELFTEST(shell_run_line_statuses)
{
	ST_ASSERT(shell_run_line("echo '#' shell selftest") == SHELL_OK);
	ST_ASSERT(shell_run_line("") == SHELL_OK);
	ST_ASSERT(shell_run_line("#nosuchcmd") == SHELL_OK);
	ST_ASSERT(shell_run_line("sleep") == SHELL_USAGE);
	ST_ASSERT(shell_run_line("sleep 0") == SHELL_OK);
	ST_ASSERT(shell_run_line("sym") == SHELL_USAGE);
	ST_ASSERT(shell_run_line("kill 999999999") == SHELL_ERR);
	ST_ASSERT(shell_run_line("echo '#' |") == SHELL_USAGE);          /* a pipe into nothing */
	ST_ASSERT(shell_run_line("echo '#' x > /bin/nope") == SHELL_ERR); /* EROFS */
	ST_ASSERT(shell_run_line("echo '#' x > /dev/null") == SHELL_OK);
}

SELFTEST(shell_run_line_sequences)
{
	/* Errors print one line each; they are expected here. */
	ST_ASSERT(shell_run_line("echo '#' 'x") == SHELL_USAGE);
	ST_ASSERT(shell_run_line("echo '#' a; sleep") == SHELL_USAGE);
	ST_ASSERT(shell_run_line("sleep; echo '#' b") == SHELL_OK);
}

SELFTEST(shell_sym_finds_itself)
{
	ST_ASSERT(shell_run_line("sym shell_run_line") == SHELL_OK);
	ST_ASSERT(shell_run_line("sym no_such_symbol_anywhere") == SHELL_ERR);
}
