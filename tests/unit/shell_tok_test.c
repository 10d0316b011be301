/*
 * shell_tok_test.c - host tests for the shell's tokenizer (console/shell/shell_tok.c).
 *
 * Each test parses a line and compares the words of each command with the
 * expected ones, written as a string with words separated by '|' and
 * commands by '/' (so "a|b/c" means two commands: [a, b] and [c]).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "console/shell/shell_tok.h"

#define WORDS_BUF 4096

static char words_buf[WORDS_BUF];
static struct shell_words words = { .sw_buf = words_buf, .sw_bufsize = WORDS_BUF };

/* render: parse the whole line into the '|' and '/' notation above. */
static enum shell_tok_err render(const char *line, char *out, size_t size)
{
	enum shell_tok_err err = SHTOK_OK;
	size_t n = 0;

	out[0] = '\0';
	while (*line != '\0' && err == SHTOK_OK) {
		err = shell_tok_next(&line, &words);
		if (n > 0)
			n += (size_t)snprintf(out + n, size - n, "/");
		for (int i = 0; i < words.sw_argc; i++)
			n += (size_t)snprintf(out + n, size - n, "%s%s", i ? "|" : "", words.sw_argv[i]);
	}
	return err;
}

#define ASSERT_TOK(line, expected) do { \
	char got_[8192]; \
	assert_int_equal(render(line, got_, sizeof(got_)), SHTOK_OK); \
	assert_string_equal(got_, expected); \
} while (0)

#define ASSERT_TOK_ERR(line, err) do { \
	char got_[8192]; \
	assert_int_equal(render(line, got_, sizeof(got_)), err); \
} while (0)

/* render_ops: one command's words, operators in braces ("a {|} b"), words separated by blanks. */
static void render_ops(const char *line, char *out, size_t size)
{
	size_t n = 0;

	out[0] = '\0';
	assert_int_equal(shell_tok_next(&line, &words), SHTOK_OK);
	for (int i = 0; i < words.sw_argc; i++)
		n += (size_t)snprintf(out + n, size - n, words.sw_op[i] ? "%s{%s}" : "%s%s",
		                      i ? " " : "", words.sw_argv[i]);
}

#define ASSERT_OPS(line, expected, nops) do { \
	char got_[8192]; \
	render_ops(line, got_, sizeof(got_)); \
	assert_string_equal(got_, expected); \
	assert_int_equal(words.sw_nops, nops); \
} while (0)

static void test_tok_operators_are_words_of_their_own(void **state)
{
	(void)state;
	ASSERT_OPS("dtrace -l | /bin/head -n 3", "dtrace -l {|} /bin/head -n 3", 1);
	ASSERT_OPS("a|b|c", "a {|} b {|} c", 2);
	ASSERT_OPS("echo x>f", "echo x {>} f", 1);
	ASSERT_OPS("echo x >>f <in", "echo x {>>} f {<} in", 2);
	ASSERT_OPS("/bin/spin&", "/bin/spin {&}", 1);
	ASSERT_OPS("echo a b", "echo a b", 0);
}

static void test_tok_quoted_operators_stay_in_the_word(void **state)
{
	(void)state;
	ASSERT_OPS("dtrace -n 'BEGIN { x = 1 | 2; y = 3 > 2; }' | /bin/cat",
	           "dtrace -n BEGIN { x = 1 | 2; y = 3 > 2; } {|} /bin/cat", 1);
	ASSERT_OPS("echo \"a|b>c<d&e\"", "echo a|b>c<d&e", 0);
	ASSERT_OPS("echo a\\|b \\>", "echo a|b >", 0);
	ASSERT_OPS("grep '|' f", "grep | f", 0);
}

/* `&` ends its command as ';' does, and stays its last word: `a & b` is [a &] then [b]. */
static void test_tok_ampersand_ends_a_command(void **state)
{
	(void)state;
	ASSERT_TOK("/bin/spin & echo hi", "/bin/spin|&/echo|hi");
	ASSERT_TOK("a&b&c", "a|&/b|&/c");
	ASSERT_TOK("a | b & c", "a|||b|&/c");
	ASSERT_TOK("a &", "a|&");
	ASSERT_TOK("a & # a comment", "a|&/");
	ASSERT_TOK("a & b; c", "a|&/b/c");
	ASSERT_TOK("a > f & b", "a|>|f|&/b");
}

/* ASSERT_SYNTAX: line is refused as a whole (shell_tok_check), near the word near_. */
#define ASSERT_SYNTAX(line_, near_) do { \
	assert_int_equal(shell_tok_check(line_, &words), SHTOK_SYNTAX); \
	assert_string_equal(words.sw_near, near_); \
} while (0)

/* What sh refuses, refused before anything of the line runs. */
static void test_tok_misplaced_operators_are_syntax_errors(void **state)
{
	(void)state;
	ASSERT_SYNTAX("& b", "&");
	ASSERT_SYNTAX("a && b", "&");
	ASSERT_SYNTAX("a & & b", "&");
	ASSERT_SYNTAX("a & ; b", ";");
	ASSERT_SYNTAX("a &;", ";");
	ASSERT_SYNTAX("echo ok; | b", "|");
	ASSERT_SYNTAX("a | | b", "|");
	ASSERT_SYNTAX("a |", "|");
	ASSERT_SYNTAX("a | > f", "|");
	ASSERT_SYNTAX("a | &", "&");
	ASSERT_SYNTAX("echo >", "newline");
	ASSERT_SYNTAX("echo > | b", "|");
	ASSERT_SYNTAX("a > & b", "&");
	ASSERT_SYNTAX("> f", "newline");
	ASSERT_SYNTAX("b & echo ok; echo >", "newline");     /* a later command's error stops the first */
	assert_int_equal(shell_tok_check("a & b & c; d", &words), SHTOK_OK);
	assert_int_equal(shell_tok_check("a;; b", &words), SHTOK_OK);      /* empty commands stay allowed */
}

static void test_tok_operator_words_fit_twice_the_line(void **state)
{
	static char small[2 * 8 + 1];
	struct shell_words w = { .sw_buf = small, .sw_bufsize = sizeof(small) };
	const char *line = "a|b|c>d";

	(void)state;
	assert_int_equal(shell_tok_next(&line, &w), SHTOK_OK);     /* 2 * strlen + 1 bytes suffice */
	assert_int_equal(w.sw_argc, 7);
	assert_int_equal(w.sw_op[5], SHOP_OUT);
}

static void test_tok_empty_line_has_no_commands(void **state)
{
	(void)state;
	ASSERT_TOK("", "");
}

static void test_tok_blanks_only_give_no_words(void **state)
{
	(void)state;
	ASSERT_TOK("   \t  ", "");
}

static void test_tok_single_word(void **state)
{
	(void)state;
	ASSERT_TOK("help", "help");
}

static void test_tok_words_split_on_blanks(void **state)
{
	(void)state;
	ASSERT_TOK("  run   spin\t500  ", "run|spin|500");
}

static void test_tok_argv_is_null_terminated(void **state)
{
	(void)state;
	const char *line = "a b";
	assert_int_equal(shell_tok_next(&line, &words), SHTOK_OK);
	assert_int_equal(words.sw_argc, 2);
	assert_null(words.sw_argv[2]);
}

static void test_tok_single_quotes_are_literal(void **state)
{
	(void)state;
	ASSERT_TOK("dtrace -n 'BEGIN { x; }'", "dtrace|-n|BEGIN { x; }");
}

static void test_tok_single_quotes_keep_backslash_and_dquote(void **state)
{
	(void)state;
	ASSERT_TOK("echo 'a\\n\"b'", "echo|a\\n\"b");
}

static void test_tok_double_quotes_group_words(void **state)
{
	(void)state;
	ASSERT_TOK("echo \"hello   world\"", "echo|hello   world");
}

static void test_tok_double_quotes_escape_quote_and_backslash(void **state)
{
	(void)state;
	ASSERT_TOK("echo \"a\\\"b\\\\c\"", "echo|a\"b\\c");
}

static void test_tok_double_quotes_keep_other_backslashes(void **state)
{
	(void)state;
	ASSERT_TOK("echo \"%d\\n\"", "echo|%d\\n");
}

static void test_tok_backslash_outside_quotes_escapes_blank(void **state)
{
	(void)state;
	ASSERT_TOK("echo a\\ b", "echo|a b");
}

static void test_tok_backslash_escapes_semicolon(void **state)
{
	(void)state;
	ASSERT_TOK("echo a\\;b", "echo|a;b");
}

static void test_tok_trailing_backslash_is_kept(void **state)
{
	(void)state;
	ASSERT_TOK("echo a\\", "echo|a\\");
}

static void test_tok_adjacent_pieces_form_one_word(void **state)
{
	(void)state;
	ASSERT_TOK("echo 'a'\"b\"c\\d", "echo|abcd");
}

static void test_tok_empty_quotes_make_empty_word(void **state)
{
	(void)state;
	const char *line = "echo '' \"\"";
	assert_int_equal(shell_tok_next(&line, &words), SHTOK_OK);
	assert_int_equal(words.sw_argc, 3);
	assert_string_equal(words.sw_argv[1], "");
	assert_string_equal(words.sw_argv[2], "");
}

static void test_tok_semicolon_separates_commands(void **state)
{
	(void)state;
	ASSERT_TOK("echo a; echo b;echo c", "echo|a/echo|b/echo|c");
}

static void test_tok_quoted_semicolon_is_literal(void **state)
{
	(void)state;
	ASSERT_TOK("echo 'a;b' \"c;d\"", "echo|a;b|c;d");
}

static void test_tok_empty_commands_between_semicolons(void **state)
{
	(void)state;
	ASSERT_TOK("a;;b", "a//b");
}

static void test_tok_next_advances_past_semicolon(void **state)
{
	(void)state;
	const char *line = "ps; halt";
	assert_int_equal(shell_tok_next(&line, &words), SHTOK_OK);
	assert_string_equal(line, " halt");
}

static void test_tok_comment_runs_to_end(void **state)
{
	(void)state;
	ASSERT_TOK("echo a # b; c", "echo|a");
}

static void test_tok_hash_inside_word_is_literal(void **state)
{
	(void)state;
	ASSERT_TOK("echo a#b '#c'", "echo|a#b|#c");
}

static void test_tok_unterminated_single_quote(void **state)
{
	(void)state;
	ASSERT_TOK_ERR("echo 'abc", SHTOK_SQUOTE);
}

static void test_tok_unterminated_double_quote(void **state)
{
	(void)state;
	ASSERT_TOK_ERR("echo \"abc\\\"", SHTOK_DQUOTE);
}

static void test_tok_error_consumes_line(void **state)
{
	(void)state;
	const char *line = "echo 'x; halt";
	assert_int_equal(shell_tok_next(&line, &words), SHTOK_SQUOTE);
	assert_int_equal(*line, '\0');
	assert_int_equal(words.sw_argc, 0);
}

static void test_tok_check_finds_error_in_later_command(void **state)
{
	(void)state;
	assert_int_equal(shell_tok_check("echo ok; echo \"bad", &words), SHTOK_DQUOTE);
	assert_int_equal(shell_tok_check("echo ok; echo good", &words), SHTOK_OK);
}

static void test_tok_max_args_accepted(void **state)
{
	(void)state;
	char line[SHELL_MAX_ARGS * 2 + 1];
	for (int i = 0; i < SHELL_MAX_ARGS; i++) {
		line[2 * i] = 'x';
		line[2 * i + 1] = ' ';
	}
	line[SHELL_MAX_ARGS * 2] = '\0';
	const char *p = line;
	assert_int_equal(shell_tok_next(&p, &words), SHTOK_OK);
	assert_int_equal(words.sw_argc, SHELL_MAX_ARGS);
}

static void test_tok_too_many_args(void **state)
{
	(void)state;
	char line[(SHELL_MAX_ARGS + 1) * 2 + 1];
	for (int i = 0; i <= SHELL_MAX_ARGS; i++) {
		line[2 * i] = 'x';
		line[2 * i + 1] = ' ';
	}
	line[(SHELL_MAX_ARGS + 1) * 2] = '\0';
	ASSERT_TOK_ERR(line, SHTOK_TOO_MANY);
}

static void test_tok_too_long_for_the_buffer(void **state)
{
	(void)state;
	size_t n = WORDS_BUF + 10;
	char *line = malloc(n + 1);
	memset(line, 'a', n);
	line[n] = '\0';
	ASSERT_TOK_ERR(line, SHTOK_TOO_LONG);
	free(line);
}

static void test_tok_4095_byte_word_fits(void **state)
{
	(void)state;
	char line[4096];
	memset(line, 'a', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	const char *p = line;
	assert_int_equal(shell_tok_next(&p, &words), SHTOK_OK);
	assert_int_equal(strlen(words.sw_argv[0]), 4095);
}

/* Any line fits in strlen(line) + 1 bytes, however it is quoted. */
static void test_tok_line_length_plus_one_always_suffices(void **state)
{
	(void)state;
	static const char *const lines[] = {
		"a", "a b c", "''", "'' \"\"", "a'b'\"c\"\\d", "x;y;z", " a ", "a\\",
		"dtrace -n 'BEGIN { printf(\"%d\\n\", 1); }'", "a # comment",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		char buf[128];
		struct shell_words w = { .sw_buf = buf, .sw_bufsize = strlen(lines[i]) + 1 };
		assert_int_equal(shell_tok_check(lines[i], &w), SHTOK_OK);
	}
}

static void test_tok_tabs_separate_words(void **state)
{
	(void)state;
	ASSERT_TOK("\tsym\t\tkmalloc\t", "sym|kmalloc");
}

static void test_tok_backslash_inside_single_quotes_is_literal(void **state)
{
	(void)state;
	ASSERT_TOK_ERR("echo 'it\\'s'", SHTOK_SQUOTE);
	ASSERT_TOK("echo 'a\\' b", "echo|a\\|b");
}

static void test_tok_escaped_quote_outside_quotes(void **state)
{
	(void)state;
	ASSERT_TOK("echo it\\'s", "echo|it's");
}

static void test_tok_d_program_with_printf(void **state)
{
	(void)state;
	ASSERT_TOK("dtrace -n 'syscall:::entry { printf(\"%s\\n\", execname); }'",
	           "dtrace|-n|syscall:::entry { printf(\"%s\\n\", execname); }");
}

static void test_tok_strerror_names_errors(void **state)
{
	(void)state;
	assert_string_equal(shell_tok_strerror(SHTOK_SQUOTE), "unterminated single quote");
	assert_string_equal(shell_tok_strerror(SHTOK_DQUOTE), "unterminated double quote");
	assert_string_equal(shell_tok_strerror(SHTOK_SYNTAX), "misplaced operator");
	assert_string_equal(shell_tok_strerror(SHTOK_TOO_MANY), "too many arguments");
}

static void test_tok_high_bytes_are_word_bytes(void **state)
{
	(void)state;
	ASSERT_TOK("echo \xc3\xa9t\xc3\xa9", "echo|\xc3\xa9t\xc3\xa9");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tok_empty_line_has_no_commands),
		cmocka_unit_test(test_tok_blanks_only_give_no_words),
		cmocka_unit_test(test_tok_single_word),
		cmocka_unit_test(test_tok_words_split_on_blanks),
		cmocka_unit_test(test_tok_argv_is_null_terminated),
		cmocka_unit_test(test_tok_single_quotes_are_literal),
		cmocka_unit_test(test_tok_single_quotes_keep_backslash_and_dquote),
		cmocka_unit_test(test_tok_double_quotes_group_words),
		cmocka_unit_test(test_tok_double_quotes_escape_quote_and_backslash),
		cmocka_unit_test(test_tok_double_quotes_keep_other_backslashes),
		cmocka_unit_test(test_tok_backslash_outside_quotes_escapes_blank),
		cmocka_unit_test(test_tok_backslash_escapes_semicolon),
		cmocka_unit_test(test_tok_trailing_backslash_is_kept),
		cmocka_unit_test(test_tok_adjacent_pieces_form_one_word),
		cmocka_unit_test(test_tok_empty_quotes_make_empty_word),
		cmocka_unit_test(test_tok_semicolon_separates_commands),
		cmocka_unit_test(test_tok_quoted_semicolon_is_literal),
		cmocka_unit_test(test_tok_empty_commands_between_semicolons),
		cmocka_unit_test(test_tok_next_advances_past_semicolon),
		cmocka_unit_test(test_tok_comment_runs_to_end),
		cmocka_unit_test(test_tok_hash_inside_word_is_literal),
		cmocka_unit_test(test_tok_unterminated_single_quote),
		cmocka_unit_test(test_tok_unterminated_double_quote),
		cmocka_unit_test(test_tok_error_consumes_line),
		cmocka_unit_test(test_tok_check_finds_error_in_later_command),
		cmocka_unit_test(test_tok_max_args_accepted),
		cmocka_unit_test(test_tok_too_many_args),
		cmocka_unit_test(test_tok_too_long_for_the_buffer),
		cmocka_unit_test(test_tok_4095_byte_word_fits),
		cmocka_unit_test(test_tok_line_length_plus_one_always_suffices),
		cmocka_unit_test(test_tok_tabs_separate_words),
		cmocka_unit_test(test_tok_backslash_inside_single_quotes_is_literal),
		cmocka_unit_test(test_tok_escaped_quote_outside_quotes),
		cmocka_unit_test(test_tok_d_program_with_printf),
		cmocka_unit_test(test_tok_strerror_names_errors),
		cmocka_unit_test(test_tok_high_bytes_are_word_bytes),
		cmocka_unit_test(test_tok_operators_are_words_of_their_own),
		cmocka_unit_test(test_tok_quoted_operators_stay_in_the_word),
		cmocka_unit_test(test_tok_operator_words_fit_twice_the_line),
		cmocka_unit_test(test_tok_ampersand_ends_a_command),
		cmocka_unit_test(test_tok_misplaced_operators_are_syntax_errors),
	};
	return cmocka_run_group_tests_name("shell_tok", tests, NULL, NULL);
}
