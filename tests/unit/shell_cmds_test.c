/*
 * shell_cmds_test.c - host tests of the shell's commands and of shell_run_line().
 *
 * The shell (console/shell/shell.c, shell_cmds.c) and the `run` command
 * (console/workloads/workload.c) run here against the pretend kernel in
 * shell_fake_kernel.c.  Each test runs a line and checks the exit status,
 * the exact output (results on the console, errors on the error stream),
 * and what the command asked of the kernel.  This file
 * also registers a command and a workload of its own, the way later code
 * (dtrace) extends the shell without touching it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/shell_fake_kernel.h"
#include "console/shell/shell.h"
#include "console/workloads/workload.h"
#include "arch/arch.h"

/* A command and a workload registered from outside the shell. */
static int test_do_answer(int argc, char **argv)
{
	(void)argv;
	return argc == 1 ? 42 : shell_usage("answer");
}
SHELL_COMMAND(answer, test_do_answer, "answer", "exit with status 42");

static int test_wl_main(const struct wl_params *p)
{
	return (int)p->wp_arg;
}
WORKLOAD(fakework, test_wl_main, "fakework [N]", "a workload that does nothing");

static int setup(void **state)
{
	(void)state;
	fk_reset();
	return 0;
}

/* ASSERT_RUN: running line_ gives status_ and prints exactly expected_. */
#define ASSERT_RUN(line_, status_, expected_) do { \
	assert_int_equal(shell_run_line(line_), status_); \
	assert_string_equal(fk.out, expected_); \
} while (0)

/* ASSERT_RUN_ERR: running line_ gives status_, prints nothing, and reports expected_ on the error stream. */
#define ASSERT_RUN_ERR(line_, status_, expected_) do { \
	assert_int_equal(shell_run_line(line_), status_); \
	assert_string_equal(fk.out, ""); \
	assert_string_equal(fk.err, expected_); \
} while (0)

/* ASSERT_RUN_HAS: running line_ gives status_ and its output contains text_. */
#define ASSERT_RUN_HAS(line_, status_, text_) do { \
	assert_int_equal(shell_run_line(line_), status_); \
	assert_non_null(strstr(fk.out, text_)); \
} while (0)

static void test_cmds_unknown_command_is_127(void **state)
{
	(void)state;
	ASSERT_RUN_ERR("frob x y", SHELL_NOTFOUND, "sonde: frob: command not found\n");
}

static void test_cmds_empty_line_is_ok(void **state)
{
	(void)state;
	ASSERT_RUN("", SHELL_OK, "");
	ASSERT_RUN(" ; ;", SHELL_OK, "");
}

static void test_cmds_status_is_the_last_commands(void **state)
{
	(void)state;
	assert_int_equal(shell_run_line("frob; echo x"), SHELL_OK);
	assert_int_equal(shell_run_line("echo x; frob"), SHELL_NOTFOUND);
	assert_int_equal(shell_run_line("echo x; answer"), 42);
}

static void test_cmds_syntax_error_runs_nothing(void **state)
{
	(void)state;
	ASSERT_RUN_ERR("echo first; echo \"open", SHELL_USAGE,
	           "sonde: syntax error: unterminated double quote\n");
}

/* A misplaced operator anywhere on the line, as sh's grammar has it, runs none of the line. */
static void test_cmds_misplaced_operator_runs_nothing(void **state)
{
	(void)state;
	ASSERT_RUN_ERR("echo first; /bin/a && /bin/b", SHELL_USAGE, "sonde: syntax error near '&'\n");
	fk_reset();
	ASSERT_RUN_ERR("echo first; /bin/a & ; echo b", SHELL_USAGE, "sonde: syntax error near ';'\n");
	fk_reset();
	ASSERT_RUN_ERR("echo first; echo > | /bin/cat", SHELL_USAGE, "sonde: syntax error near '|'\n");
}

static void test_cmds_out_of_memory(void **state)
{
	(void)state;
	fk.malloc_fails = true;
	ASSERT_RUN_ERR("echo x", SHELL_ERR, "sonde: out of memory\n");
}

static void test_cmds_long_line_from_a_file_runs(void **state)
{
	(void)state;
	/* cmdfile= hands shell_run_line lines far longer than the editor's 4 KiB. */
	size_t n = 20000;
	char *line = malloc(n + 8);
	memcpy(line, "echo '", 6);
	memset(line + 6, 'd', n);
	memcpy(line + 6 + n, "'", 2);
	assert_int_equal(shell_run_line(line), SHELL_OK);
	assert_int_equal(fk.out_len, n + 1);
	free(line);
}

static void test_cmds_echo_joins_words(void **state)
{
	(void)state;
	ASSERT_RUN("echo  a  'b  c'   d", SHELL_OK, "a b  c d\n");
}

static void test_cmds_echo_n_omits_newline(void **state)
{
	(void)state;
	ASSERT_RUN("echo -n a b", SHELL_OK, "a b");
	ASSERT_RUN("echo", SHELL_OK, "a b\n");
}

static void test_cmds_help_lists_sorted_commands(void **state)
{
	(void)state;
	assert_int_equal(shell_run_line("help"), SHELL_OK);
	const char *answer = strstr(fk.out, "  answer ");
	const char *crash = strstr(fk.out, "  crash KIND ");
	const char *uptime = strstr(fk.out, "  uptime ");
	assert_non_null(answer);
	assert_non_null(crash);
	assert_non_null(uptime);
	assert_true(answer < crash && crash < uptime);
	assert_non_null(strstr(fk.out, "  sym ADDR|NAME"));
}

static void test_cmds_help_one_command(void **state)
{
	(void)state;
	ASSERT_RUN("help answer", SHELL_OK, "usage: answer\n  exit with status 42\n");
}

static void test_cmds_help_unknown_command(void **state)
{
	(void)state;
	ASSERT_RUN_ERR("help frob", SHELL_ERR, "help: no such command: frob\n");
}

static void test_cmds_usage_errors(void **state)
{
	(void)state;
	static const char *const lines[] = {
		"help a b", "uptime x", "sleep", "sleep x", "sleep 1 2", "ps x",
		"mem x", "sym", "sym a b", "halt x", "reboot x", "crash", "crash x",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		fk_reset();
		assert_int_equal(shell_run_line(lines[i]), SHELL_USAGE);
		assert_string_equal(fk.out, "");
		assert_int_equal(strncmp(fk.err, "usage: ", 7), 0);
		assert_non_null(strchr(fk.err, '\n'));
		assert_ptr_equal(strchr(fk.err, '\n'), fk.err + fk.err_len - 1);  /* one line */
	}
}

static void test_cmds_uptime_format(void **state)
{
	(void)state;
	fk.now_ns = 3723500ULL * 1000000;
	ASSERT_RUN("uptime", SHELL_OK, "up 3723.500 s (1:02:03), 3 threads\n");
}

static void test_cmds_sleep_waits(void **state)
{
	(void)state;
	ASSERT_RUN("sleep 2", SHELL_OK, "");
	assert_true(fk.now_ns >= 3500 * 1000000ULL);
}

static void test_cmds_sleep_zero_returns_at_once(void **state)
{
	(void)state;
	ASSERT_RUN("sleep 0", SHELL_OK, "");
	assert_true(fk.now_ns == 1500 * 1000000ULL);
}

static void test_cmds_ctrl_c_interrupts_sleep_and_flushes_input(void **state)
{
	(void)state;
	fk.ctrl_c_at_ns = 3000 * 1000000ULL;
	fk_type("typed-ahead", 11);
	ASSERT_RUN("sleep 100", SHELL_INTERRUPTED, "");    /* the ^C is the console's echo, not the shell's */
	assert_true(fk.now_ns < 4000 * 1000000ULL);
	assert_int_equal(fk.in_len, 0);              /* the ^C byte and typeahead are gone */
	assert_false(fk.interrupted);
}

static void test_cmds_ctrl_c_keeps_what_is_typed_after_it(void **state)
{
	(void)state;
	fk.ctrl_c_at_ns = 3000 * 1000000ULL;
	fk.after_ctrl_c = "echo next\r";
	fk_type("typed-ahead", 11);
	fk.echo_interrupt = true;                    /* as while a typed line runs */
	ASSERT_RUN("sleep 100", SHELL_INTERRUPTED, "^C\n");    /* the echo once, nothing from the shell */
	assert_int_equal(fk.in_len, 10);             /* the next line stays, in full */
	assert_memory_equal(fk.in, "echo next\r", 10);
	assert_false(fk.interrupted);
}

static void test_cmds_ctrl_c_stops_the_rest_of_the_line(void **state)
{
	(void)state;
	fk.ctrl_c_at_ns = 2000 * 1000000ULL;
	ASSERT_RUN("sleep 5; echo after", SHELL_INTERRUPTED, "");
}

static void test_cmds_stale_ctrl_c_does_not_interrupt(void **state)
{
	(void)state;
	fk.interrupted = true;                       /* pressed at the prompt, earlier */
	ASSERT_RUN("sleep 1", SHELL_OK, "");
}

static void test_cmds_ps_columns(void **state)
{
	(void)state;
	ASSERT_RUN("ps", SHELL_OK,
	           "  TID  NAME                 STATE     CPU         TIME\n"
	           "    0  idle                 runnable    0        1.500\n"
	           "    1  init                 running     0        0.002\n"
	           "    2  spin                 sleeping    0        0.000\n");
}

static void test_cmds_mem(void **state)
{
	(void)state;
	ASSERT_RUN("mem", SHELL_OK,
	           "physical: 262144 KiB total, 204800 KiB free, 1024 KiB kernel image\n"
	           "heap:     4096 bytes in use, 3 pages, 10 allocs, 7 frees, 0 failures\n"
	           "pages:    1 slab, 1 large, 1 page tables, 0 arena tags, 0 in quarantine\n"
	           "arena:    8 KiB of 1024 MiB allocated, 3 segments, largest free 1020 MiB, "
	           "0 KiB in quarantine\n"
	           "slabs:    16:3/255 32:2/127\n");
}

static void test_cmds_sym_by_name(void **state)
{
	(void)state;
	ASSERT_RUN("sym kmain", SHELL_OK, "kmain = 0xffffffff80100000 (function, size 0x40)\n");
}

static void test_cmds_sym_by_address(void **state)
{
	(void)state;
	ASSERT_RUN("sym 0xffffffff8010001c", SHELL_OK,
	           "0xffffffff8010001c = kmain+0x1c\n"
	           "kmain = 0xffffffff80100000 (function, size 0x40)\n");
}

static void test_cmds_sym_object(void **state)
{
	(void)state;
	ASSERT_RUN_HAS("sym boot_info", SHELL_OK, "(object, size 0x8)");
}

static void test_cmds_sym_not_found(void **state)
{
	(void)state;
	ASSERT_RUN_ERR("sym nothing", SHELL_ERR, "sym: nothing: no such symbol\n");
	fk_reset();
	ASSERT_RUN_ERR("sym 0x10", SHELL_ERR, "sym: no symbol at 0x10\n");
}

static void test_cmds_halt_powers_off_with_0(void **state)
{
	(void)state;
	if (setjmp(fk.exit_jmp) == 0) {
		shell_run_line("halt");
		fail_msg("halt returned");
	}
	assert_int_equal(fk.poweroff_status, POWEROFF_OK);
}

static void test_cmds_reboot(void **state)
{
	(void)state;
	if (setjmp(fk.exit_jmp) == 0) {
		shell_run_line("reboot");
		fail_msg("reboot returned");
	}
	assert_true(fk.rebooted);
}

static void test_cmds_crash_kinds(void **state)
{
	(void)state;
	static const struct { const char *line; int kind; } cases[] = {
		{ "crash pagefault", FAULT_PAGE }, { "crash divide", FAULT_DIVIDE },
		{ "crash ud", FAULT_UD }, { "crash gp", FAULT_GP },
		{ "crash breakpoint", FAULT_BREAKPOINT }, { "crash stack", FAULT_STACK },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fk_reset();
		/* The fake CPU does not fault, so the command reports that. */
		assert_int_equal(shell_run_line(cases[i].line), SHELL_ERR);
		assert_int_equal(fk.fault_kind, cases[i].kind);
		assert_non_null(strstr(fk.err, "the fault did not happen"));
	}
}

static void test_cmds_run_lists_workloads(void **state)
{
	(void)state;
	ASSERT_RUN_HAS("run", SHELL_OK, "  fakework [N]         a workload that does nothing\n");
	assert_int_equal(fk.created, 0);
}

static void test_cmds_run_starts_a_thread(void **state)
{
	(void)state;
	ASSERT_RUN("run fakework 7", SHELL_OK, "fakework: tid 101\n");
	assert_int_equal(fk.created, 1);
	assert_string_equal(fk.created_name, "fakework");
	free(fk.created_arg);
}

static void test_cmds_run_errors(void **state)
{
	(void)state;
	ASSERT_RUN_ERR("run frob", SHELL_ERR, "run: frob: no such workload (try 'run')\n");
	fk_reset();
	ASSERT_RUN_ERR("run fakework x", SHELL_USAGE, "usage: run fakework [N]\n");
	fk_reset();
	ASSERT_RUN_ERR("run fakework 1 2", SHELL_USAGE, "usage: run fakework [N]\n");
	assert_int_equal(fk.created, 0);
}

static void test_cmds_run_without_memory(void **state)
{
	(void)state;
	fk.malloc_fails = true;
	assert_int_equal(wl_spawn(wl_find("fakework"), &(struct wl_params){ 0, false }), 0);
}

static void test_cmds_table_lookup(void **state)
{
	(void)state;
	assert_non_null(shell_cmd_find("answer"));
	assert_null(shell_cmd_find("answe"));
	assert_null(shell_cmd_get(-1));
	assert_null(shell_cmd_get(shell_cmd_count()));
	assert_true(shell_cmd_count() >= 13);
	assert_non_null(wl_find("fakework"));
	assert_null(wl_get(wl_count()));
}

int main(void)
{
#define T(name) cmocka_unit_test_setup(name, setup)
	const struct CMUnitTest tests[] = {
		T(test_cmds_unknown_command_is_127),
		T(test_cmds_empty_line_is_ok),
		T(test_cmds_status_is_the_last_commands),
		T(test_cmds_syntax_error_runs_nothing),
		T(test_cmds_misplaced_operator_runs_nothing),
		T(test_cmds_out_of_memory),
		T(test_cmds_long_line_from_a_file_runs),
		T(test_cmds_echo_joins_words),
		T(test_cmds_echo_n_omits_newline),
		T(test_cmds_help_lists_sorted_commands),
		T(test_cmds_help_one_command),
		T(test_cmds_help_unknown_command),
		T(test_cmds_usage_errors),
		T(test_cmds_uptime_format),
		T(test_cmds_sleep_waits),
		T(test_cmds_sleep_zero_returns_at_once),
		T(test_cmds_ctrl_c_interrupts_sleep_and_flushes_input),
		T(test_cmds_ctrl_c_keeps_what_is_typed_after_it),
		T(test_cmds_ctrl_c_stops_the_rest_of_the_line),
		T(test_cmds_stale_ctrl_c_does_not_interrupt),
		T(test_cmds_ps_columns),
		T(test_cmds_mem),
		T(test_cmds_sym_by_name),
		T(test_cmds_sym_by_address),
		T(test_cmds_sym_object),
		T(test_cmds_sym_not_found),
		T(test_cmds_halt_powers_off_with_0),
		T(test_cmds_reboot),
		T(test_cmds_crash_kinds),
		T(test_cmds_run_lists_workloads),
		T(test_cmds_run_starts_a_thread),
		T(test_cmds_run_errors),
		T(test_cmds_run_without_memory),
		T(test_cmds_table_lookup),
	};
#undef T
	return cmocka_run_group_tests_name("shell_cmds", tests, NULL, NULL);
}
