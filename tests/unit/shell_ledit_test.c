/*
 * shell_ledit_test.c - host tests for the shell's line editor (console/shell/ledit.c).
 *
 * The editor's output goes into a tiny terminal model (one row of cells and
 * a cursor column; '\b' moves left, '\r' to column 0, '\n' starts a new
 * row).  Tests feed keystrokes and then check both what the editor holds
 * (the line, the cursor) and what the terminal shows, so every redraw is
 * checked against the invariant "screen row == prompt + line, terminal
 * cursor == prompt length + cursor".
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "console/shell/ledit.h"

#define PROMPT "sonde# "
#define ROW_MAX 16384

/* The terminal model. */
struct term {
	char row[ROW_MAX];           /* the current row; unwritten cells are blanks */
	size_t width;                /* cells ever written in this row */
	size_t col;
	char last_row[ROW_MAX];      /* the row before the last '\n' */
	size_t bytes;                /* total bytes written */
	int rows_done;               /* '\n's seen */
};

static struct ledit le;
static struct term term;

static void term_write(void *ctx, const char *s, size_t n)
{
	struct term *t = ctx;

	for (size_t i = 0; i < n; i++, t->bytes++) {
		char c = s[i];
		if (c == '\b') {
			assert_true(t->col > 0);         /* never back up past the margin */
			t->col--;
		} else if (c == '\r') {
			t->col = 0;
		} else if (c == '\n') {
			memcpy(t->last_row, t->row, sizeof(t->row));
			memset(t->row, 0, sizeof(t->row));
			t->width = t->col = 0;
			t->rows_done++;
		} else if (c != '\x1b') {
			assert_true(t->col < ROW_MAX - 1);
			t->row[t->col++] = c;
			t->width = t->col > t->width ? t->col : t->width;
		}
	}
}

/* term_text: the visible row with trailing blanks removed. */
static const char *term_text(void)
{
	static char buf[ROW_MAX];
	size_t n = term.width;

	for (size_t i = 0; i < n; i++)
		buf[i] = term.row[i] ? term.row[i] : ' ';
	while (n > 0 && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
	return buf;
}

/* rtrim: s without trailing blanks (the terminal model cannot tell them from empty cells). */
static const char *rtrim(const char *s)
{
	static char buf[ROW_MAX];
	size_t n = strlen(s);

	memcpy(buf, s, n + 1);
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = '\0';
	return buf;
}

static int setup(void **state)
{
	(void)state;
	memset(&term, 0, sizeof(term));
	ledit_init(&le, PROMPT, term_write, &term);
	ledit_start(&le);
	return 0;
}

/* feed: type the bytes of s; returns the last event that was not LEDIT_NONE. */
static enum ledit_event feed(const char *s)
{
	enum ledit_event last = LEDIT_NONE;

	for (; *s != '\0'; s++) {
		enum ledit_event ev = ledit_feed(&le, (uint8_t)*s);
		if (ev != LEDIT_NONE)
			last = ev;
	}
	return last;
}

/* ASSERT_SHOWS: the editor holds `line` with the cursor at `cur`, and the screen agrees. */
#define ASSERT_SHOWS(line, cur) do { \
	assert_string_equal(ledit_line(&le), line); \
	assert_int_equal(le.le_cur, cur); \
	assert_string_equal(term_text(), rtrim(PROMPT line)); \
	assert_int_equal(term.col, strlen(PROMPT) + (cur)); \
} while (0)

#define LEFT   "\x1b[D"
#define RIGHT  "\x1b[C"
#define UP     "\x1b[A"
#define DOWN   "\x1b[B"
#define HOME   "\x1b[H"
#define END    "\x1b[F"

static void test_ledit_start_prints_prompt(void **state)
{
	(void)state;
	ASSERT_SHOWS("", 0);
}

static void test_ledit_typing_echoes(void **state)
{
	(void)state;
	assert_int_equal(feed("help"), LEDIT_NONE);
	ASSERT_SHOWS("help", 4);
}

static void test_ledit_enter_cr_completes_line(void **state)
{
	(void)state;
	assert_int_equal(feed("ps\r"), LEDIT_LINE);
	assert_string_equal(ledit_line(&le), "ps");
	assert_int_equal(term.rows_done, 1);
}

static void test_ledit_enter_lf_completes_line(void **state)
{
	(void)state;
	assert_int_equal(feed("ps\n"), LEDIT_LINE);
	assert_string_equal(ledit_line(&le), "ps");
}

static void test_ledit_crlf_is_one_enter(void **state)
{
	(void)state;
	assert_int_equal(feed("a\r"), LEDIT_LINE);
	ledit_start(&le);
	assert_int_equal(ledit_feed(&le, '\n'), LEDIT_NONE);
	assert_int_equal(feed("\n"), LEDIT_LINE);     /* a second LF is an Enter */
}

static void test_ledit_empty_enter_gives_empty_line(void **state)
{
	(void)state;
	assert_int_equal(feed("\r"), LEDIT_LINE);
	assert_string_equal(ledit_line(&le), "");
}

static void test_ledit_backspace_deletes_left(void **state)
{
	(void)state;
	feed("helpx\b");
	ASSERT_SHOWS("help", 4);
}

static void test_ledit_del_deletes_left(void **state)
{
	(void)state;
	feed("helpx\x7f");
	ASSERT_SHOWS("help", 4);
}

static void test_ledit_backspace_at_start_is_harmless(void **state)
{
	(void)state;
	feed("\b\x7f\b");
	ASSERT_SHOWS("", 0);
}

static void test_ledit_left_arrow_then_insert(void **state)
{
	(void)state;
	feed("hlp" LEFT LEFT "e");
	ASSERT_SHOWS("help", 2);
}

static void test_ledit_right_arrow_stops_at_end(void **state)
{
	(void)state;
	feed("ab" LEFT RIGHT RIGHT RIGHT);
	ASSERT_SHOWS("ab", 2);
}

static void test_ledit_left_arrow_stops_at_start(void **state)
{
	(void)state;
	feed("ab" LEFT LEFT LEFT LEFT);
	ASSERT_SHOWS("ab", 0);
}

static void test_ledit_backspace_mid_line_redraws(void **state)
{
	(void)state;
	feed("hexlp" LEFT LEFT "\b");
	ASSERT_SHOWS("help", 2);
}

static void test_ledit_ctrl_u_kills_to_start(void **state)
{
	(void)state;
	feed("garbage words\x15");
	ASSERT_SHOWS("", 0);
}

static void test_ledit_ctrl_u_keeps_text_after_cursor(void **state)
{
	(void)state;
	feed("xxhelp" LEFT LEFT LEFT LEFT "\x15");
	ASSERT_SHOWS("help", 0);
}

static void test_ledit_ctrl_k_kills_to_end(void **state)
{
	(void)state;
	feed("help me" LEFT LEFT LEFT "\x0b");
	ASSERT_SHOWS("help", 4);
}

static void test_ledit_ctrl_w_kills_word(void **state)
{
	(void)state;
	feed("run spin\x17");
	ASSERT_SHOWS("run ", 4);
}

static void test_ledit_ctrl_w_skips_trailing_blanks(void **state)
{
	(void)state;
	feed("run spin   \x17");
	ASSERT_SHOWS("run ", 4);
}

static void test_ledit_ctrl_w_at_start_is_harmless(void **state)
{
	(void)state;
	feed("\x17");
	ASSERT_SHOWS("", 0);
}

static void test_ledit_home_end_keys(void **state)
{
	(void)state;
	feed("elp" HOME "h" END "!");
	ASSERT_SHOWS("help!", 5);
}

static void test_ledit_vt_home_end_and_ctrl_a_e(void **state)
{
	(void)state;
	feed("b\x1b[1~a\x1b[4~c\x01<\x05>");
	ASSERT_SHOWS("<abc>", 5);
}

static void test_ledit_delete_key_deletes_under_cursor(void **state)
{
	(void)state;
	feed("helxp" LEFT LEFT "\x1b[3~");
	ASSERT_SHOWS("help", 3);
}

static void test_ledit_ss3_arrows(void **state)
{
	(void)state;
	feed("ac\x1bOD" "b");
	ASSERT_SHOWS("abc", 2);
}

static void test_ledit_ctrl_c_cancels_line(void **state)
{
	(void)state;
	assert_int_equal(feed("halt\x03"), LEDIT_CANCEL);
	assert_string_equal(ledit_line(&le), "");
	assert_string_equal(term.last_row, PROMPT "halt^C");
}

static void test_ledit_history_up_recalls_last(void **state)
{
	(void)state;
	feed("uptime\r");
	ledit_start(&le);
	feed(UP);
	ASSERT_SHOWS("uptime", 6);
	assert_int_equal(feed("\r"), LEDIT_LINE);
	assert_string_equal(ledit_line(&le), "uptime");
}

static void test_ledit_history_walks_back_and_forth(void **state)
{
	(void)state;
	feed("one\r");
	ledit_start(&le);
	feed("two\r");
	ledit_start(&le);
	feed("draft" UP);
	ASSERT_SHOWS("two", 3);
	feed(UP);
	ASSERT_SHOWS("one", 3);
	feed(UP);                                    /* no older entry */
	ASSERT_SHOWS("one", 3);
	feed(DOWN);
	ASSERT_SHOWS("two", 3);
	feed(DOWN);                                  /* back to the draft */
	ASSERT_SHOWS("draft", 5);
	feed(DOWN);
	ASSERT_SHOWS("draft", 5);
}

static void test_ledit_history_longer_line_is_blanked(void **state)
{
	(void)state;
	feed("ps\r");
	ledit_start(&le);
	feed("a much longer line" UP);
	ASSERT_SHOWS("ps", 2);
}

static void test_ledit_history_skips_empty_and_duplicates(void **state)
{
	(void)state;
	feed("ps\r");
	ledit_start(&le);
	feed("\r");
	ledit_start(&le);
	feed("ps\r");
	assert_int_equal(le.le_hist_count, 1);
}

static void test_ledit_history_keeps_newest(void **state)
{
	(void)state;
	char line[16];
	for (int i = 0; i < LEDIT_HIST_MAX + 5; i++) {
		snprintf(line, sizeof(line), "cmd%d\r", i);
		feed(line);
		ledit_start(&le);
	}
	assert_int_equal(le.le_hist_count, LEDIT_HIST_MAX);
	snprintf(line, sizeof(line), "cmd%d", LEDIT_HIST_MAX + 4);
	assert_string_equal(ledit_hist_get(&le, 0), line);
	assert_string_equal(ledit_hist_get(&le, LEDIT_HIST_MAX - 1), "cmd5");
	assert_null(ledit_hist_get(&le, LEDIT_HIST_MAX));
}

static void test_ledit_ctrl_p_n_browse_history(void **state)
{
	(void)state;
	feed("mem\r");
	ledit_start(&le);
	feed("\x10");
	ASSERT_SHOWS("mem", 3);
	feed("\x0e");
	ASSERT_SHOWS("", 0);
}

static void test_ledit_unknown_csi_is_ignored(void **state)
{
	(void)state;
	feed("ab\x1b[99;42Zcd\x1b[5~\x1b[?25h");
	ASSERT_SHOWS("abcd", 4);
}

static void test_ledit_long_csi_parameters_are_ignored(void **state)
{
	(void)state;
	feed("a\x1b[1111111111111111111111111111111111111;2222222222mb");
	ASSERT_SHOWS("ab", 2);
}

static void test_ledit_alt_key_is_ignored(void **state)
{
	(void)state;
	feed("a\x1b" "xb");
	ASSERT_SHOWS("ab", 2);
}

static void test_ledit_esc_then_enter_still_enters(void **state)
{
	(void)state;
	assert_int_equal(feed("ps\x1b\r"), LEDIT_LINE);
	assert_string_equal(ledit_line(&le), "ps");
}

static void test_ledit_csi_cut_by_enter_still_enters(void **state)
{
	(void)state;
	assert_int_equal(feed("ps\x1b[12\r"), LEDIT_LINE);
	assert_string_equal(ledit_line(&le), "ps");
}

static void test_ledit_ss3_cut_by_enter_still_enters(void **state)
{
	(void)state;
	assert_int_equal(feed("ps\x1bO\r"), LEDIT_LINE);
	assert_string_equal(ledit_line(&le), "ps");
}

static void test_ledit_double_esc_then_arrow(void **state)
{
	(void)state;
	feed("ac\x1b\x1b[Db");
	ASSERT_SHOWS("abc", 2);
}

static void test_ledit_delete_at_end_is_harmless(void **state)
{
	(void)state;
	feed("ab\x1b[3~\x04");
	ASSERT_SHOWS("ab", 2);
}

static void test_ledit_editing_recalled_line_keeps_history(void **state)
{
	(void)state;
	feed("echo one\r");
	ledit_start(&le);
	feed(UP "\b\b\btwo\r");
	assert_string_equal(ledit_line(&le), "echo two");
	assert_string_equal(ledit_hist_get(&le, 0), "echo two");
	assert_string_equal(ledit_hist_get(&le, 1), "echo one");
}

static void test_ledit_cursor_mid_line_then_enter_takes_whole_line(void **state)
{
	(void)state;
	assert_int_equal(feed("echo abc" LEFT LEFT "\r"), LEDIT_LINE);
	assert_string_equal(ledit_line(&le), "echo abc");
}

static void test_ledit_control_and_high_bytes_ignored(void **state)
{
	(void)state;
	feed("a\x01\x05\x02\x06" "b\x80\xff\xc3\x07\t\x1f");
	ledit_feed(&le, 0x00);
	feed("c");
	ASSERT_SHOWS("abc", 3);
}

static void test_ledit_line_too_long(void **state)
{
	(void)state;
	size_t n = 65536;
	char *big = malloc(n + 2);
	memset(big, 'x', n);
	big[n] = '\r';
	big[n + 1] = '\0';
	assert_int_equal(feed(big), LEDIT_TOOLONG);
	assert_string_equal(ledit_line(&le), "");
	assert_true(term.bytes < 2 * LEDIT_LINE_MAX);  /* the excess is not echoed */
	free(big);
	ledit_start(&le);
	assert_int_equal(feed("ps\r"), LEDIT_LINE);
	assert_string_equal(ledit_line(&le), "ps");
}

static void test_ledit_longest_line_fits(void **state)
{
	(void)state;
	char line[LEDIT_LINE_MAX + 1];
	memset(line, 'y', LEDIT_LINE_MAX - 1);
	line[LEDIT_LINE_MAX - 1] = '\r';
	line[LEDIT_LINE_MAX] = '\0';
	assert_int_equal(feed(line), LEDIT_LINE);
	assert_int_equal(strlen(ledit_line(&le)), LEDIT_LINE_MAX - 1);
}

static void test_ledit_ctrl_c_clears_too_long_state(void **state)
{
	(void)state;
	char line[LEDIT_LINE_MAX + 10];
	memset(line, 'z', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	feed(line);
	assert_int_equal(feed("\x03"), LEDIT_CANCEL);
	ledit_start(&le);
	assert_int_equal(feed("ok\r"), LEDIT_LINE);
}

static void test_ledit_random_bytes_never_break_invariant(void **state)
{
	(void)state;
	uint32_t x = 12345;
	for (int i = 0; i < 200000; i++) {
		x ^= x << 13; x ^= x >> 17; x ^= x << 5;
		uint8_t c = (uint8_t)x;
		if (c == '\r' || c == '\n' || c == 0x03 || c == 0x0c)
			continue;                       /* keep one row; no clear-screen */
		ledit_feed(&le, c);
		assert_true(le.le_cur <= le.le_len);
		assert_true(le.le_len < LEDIT_LINE_MAX);
	}
	if (le.le_esc == LE_ESC_NONE && !le.le_toolong) {
		assert_int_equal(term.col, strlen(PROMPT) + le.le_cur);
		assert_memory_equal(term.row + strlen(PROMPT), ledit_line(&le), le.le_len);
	}
}

static void test_ledit_ctrl_l_redraws_line(void **state)
{
	(void)state;
	feed("abc" LEFT "\x0c");
	assert_string_equal(ledit_line(&le), "abc");
	assert_int_equal(le.le_cur, 2);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup(name, setup)
	const struct CMUnitTest tests[] = {
		T(test_ledit_start_prints_prompt),
		T(test_ledit_typing_echoes),
		T(test_ledit_enter_cr_completes_line),
		T(test_ledit_enter_lf_completes_line),
		T(test_ledit_crlf_is_one_enter),
		T(test_ledit_empty_enter_gives_empty_line),
		T(test_ledit_backspace_deletes_left),
		T(test_ledit_del_deletes_left),
		T(test_ledit_backspace_at_start_is_harmless),
		T(test_ledit_left_arrow_then_insert),
		T(test_ledit_right_arrow_stops_at_end),
		T(test_ledit_left_arrow_stops_at_start),
		T(test_ledit_backspace_mid_line_redraws),
		T(test_ledit_ctrl_u_kills_to_start),
		T(test_ledit_ctrl_u_keeps_text_after_cursor),
		T(test_ledit_ctrl_k_kills_to_end),
		T(test_ledit_ctrl_w_kills_word),
		T(test_ledit_ctrl_w_skips_trailing_blanks),
		T(test_ledit_ctrl_w_at_start_is_harmless),
		T(test_ledit_home_end_keys),
		T(test_ledit_vt_home_end_and_ctrl_a_e),
		T(test_ledit_delete_key_deletes_under_cursor),
		T(test_ledit_ss3_arrows),
		T(test_ledit_ctrl_c_cancels_line),
		T(test_ledit_history_up_recalls_last),
		T(test_ledit_history_walks_back_and_forth),
		T(test_ledit_history_longer_line_is_blanked),
		T(test_ledit_history_skips_empty_and_duplicates),
		T(test_ledit_history_keeps_newest),
		T(test_ledit_ctrl_p_n_browse_history),
		T(test_ledit_unknown_csi_is_ignored),
		T(test_ledit_long_csi_parameters_are_ignored),
		T(test_ledit_alt_key_is_ignored),
		T(test_ledit_esc_then_enter_still_enters),
		T(test_ledit_csi_cut_by_enter_still_enters),
		T(test_ledit_ss3_cut_by_enter_still_enters),
		T(test_ledit_double_esc_then_arrow),
		T(test_ledit_delete_at_end_is_harmless),
		T(test_ledit_editing_recalled_line_keeps_history),
		T(test_ledit_cursor_mid_line_then_enter_takes_whole_line),
		T(test_ledit_control_and_high_bytes_ignored),
		T(test_ledit_line_too_long),
		T(test_ledit_longest_line_fits),
		T(test_ledit_ctrl_c_clears_too_long_state),
		T(test_ledit_random_bytes_never_break_invariant),
		T(test_ledit_ctrl_l_redraws_line),
	};
#undef T
	return cmocka_run_group_tests_name("ledit", tests, NULL, NULL);
}
