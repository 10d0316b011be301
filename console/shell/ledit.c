/*
 * ledit.c - the shell's line editor (see ledit.h for the key map).
 *
 * Theory.  The editor is a state machine over input bytes.  Its state is the
 * line (le_buf, le_len), the cursor (le_cur), an escape-sequence parser
 * (le_esc, le_csi) and a ring of history lines.  Each byte either edits the
 * line, moves the cursor, advances the escape parser, or ends the line.
 *
 * Invariant: after every ledit_feed() the terminal shows the prompt followed
 * by le_buf[0..le_len), with the terminal cursor le_cur bytes after the
 * prompt.  Every edit keeps it so by the same three moves: back up with '\b'
 * to the first changed byte, reprint from there to the end of the line (plus
 * blanks over whatever the old line had beyond its new end), and back up to
 * the cursor again.  No terminal escape sequences are needed except for
 * Ctrl-L's clear-screen.
 *
 * The editor never allocates and never calls the kernel; the caller supplies
 * the output function.  Order below: output helpers, edits, history, escape
 * sequences, the key dispatch, and the entry points.
 *
 * Tests: tests/unit/shell_ledit_test.c; self-tests shell_ledit_edits;
 *        tests/e2e/test_editing.py
 */
#include "console/shell/ledit.h"
#include "kernel/klib.h"

#define CTRL(c)  ((c) & 0x1f)
#define KEY_ESC  0x1b
#define KEY_DEL  0x7f

/* Logical keys that escape sequences and control bytes both map to. */
enum ledit_key { LK_LEFT, LK_RIGHT, LK_UP, LK_DOWN, LK_HOME, LK_END, LK_DELETE };

/* --- output helpers ------------------------------------------------------ */

static void le_out(struct ledit *le, const char *s, size_t n)
{
	if (n > 0)
		le->le_write(le->le_ctx, s, n);
}

static void le_repeat(struct ledit *le, char c, size_t n)
{
	char chunk[64];

	memset(chunk, c, sizeof(chunk));
	while (n > 0) {
		size_t k = MIN(n, sizeof(chunk));
		le_out(le, chunk, k);
		n -= k;
	}
}

/*
 * le_redraw_from: the terminal cursor is at line position from; reprint the
 * line from there, blank out `erase` stale bytes after its end, and put the
 * terminal cursor back at le_cur.
 */
static void le_redraw_from(struct ledit *le, size_t from, size_t erase)
{
	le_out(le, le->le_buf + from, le->le_len - from);
	le_repeat(le, ' ', erase);
	le_repeat(le, '\b', le->le_len + erase - le->le_cur);
}

/* le_move_to: move the cursor (and the terminal's) to pos. */
static void le_move_to(struct ledit *le, size_t pos)
{
	if (pos < le->le_cur)
		le_repeat(le, '\b', le->le_cur - pos);
	else
		le_out(le, le->le_buf + le->le_cur, pos - le->le_cur);
	le->le_cur = pos;
}

/* --- edits --------------------------------------------------------------- */

static void le_insert(struct ledit *le, char c)
{
	if (le->le_len + 1 >= LEDIT_LINE_MAX) {
		le->le_toolong = true;
		return;
	}
	memmove(le->le_buf + le->le_cur + 1, le->le_buf + le->le_cur, le->le_len - le->le_cur);
	le->le_buf[le->le_cur] = c;
	le->le_len++;
	le->le_buf[le->le_len] = '\0';
	size_t from = le->le_cur++;
	le_redraw_from(le, from, 0);
}

/* le_delete_range: remove bytes [from, to); the cursor lies within them. */
static void le_delete_range(struct ledit *le, size_t from, size_t to)
{
	if (from >= to)
		return;
	le_repeat(le, '\b', le->le_cur - from);
	memmove(le->le_buf + from, le->le_buf + to, le->le_len - to);
	le->le_len -= to - from;
	le->le_buf[le->le_len] = '\0';
	le->le_cur = from;
	le_redraw_from(le, from, to - from);
}

/* le_replace: make the whole line `text`, cursor at its end. */
static void le_replace(struct ledit *le, const char *text)
{
	size_t old = le->le_len;
	size_t n = MIN(strlen(text), (size_t)LEDIT_LINE_MAX - 1);

	le_move_to(le, 0);
	memcpy(le->le_buf, text, n);
	le->le_buf[n] = '\0';
	le->le_len = n;
	le->le_cur = n;
	le_redraw_from(le, 0, old > n ? old - n : 0);
}

/* le_word_start: where Ctrl-W stops: skip blanks left of the cursor, then the word. */
static size_t le_word_start(const struct ledit *le)
{
	size_t i = le->le_cur;

	while (i > 0 && le->le_buf[i - 1] == ' ')
		i--;
	while (i > 0 && le->le_buf[i - 1] != ' ')
		i--;
	return i;
}

static void le_clear_screen(struct ledit *le)
{
	static const char cls[] = "\x1b[H\x1b[2J";

	le_out(le, cls, sizeof(cls) - 1);
	le_out(le, le->le_prompt, strlen(le->le_prompt));
	size_t cur = le->le_cur;
	le->le_cur = le->le_len;
	le_out(le, le->le_buf, le->le_len);
	le_move_to(le, cur);
}

/* --- history ------------------------------------------------------------- */

void ledit_hist_add(struct ledit *le, const char *line)
{
	if (line[0] == '\0')
		return;
	const char *newest = ledit_hist_get(le, 0);
	if (newest != NULL && strcmp(newest, line) == 0)
		return;
	le->le_hist_head = (le->le_hist_head + 1) % LEDIT_HIST_MAX;
	size_t n = MIN(strlen(line), (size_t)LEDIT_LINE_MAX - 1);
	memcpy(le->le_hist[le->le_hist_head], line, n);
	le->le_hist[le->le_hist_head][n] = '\0';
	if (le->le_hist_count < LEDIT_HIST_MAX)
		le->le_hist_count++;
}

const char *ledit_hist_get(const struct ledit *le, int i)
{
	if (i < 0 || i >= le->le_hist_count)
		return NULL;
	return le->le_hist[(le->le_hist_head - i + LEDIT_HIST_MAX) % LEDIT_HIST_MAX];
}

static void le_hist_up(struct ledit *le)
{
	if (le->le_hist_pos + 1 >= le->le_hist_count)
		return;
	if (le->le_hist_pos < 0)
		memcpy(le->le_saved, le->le_buf, le->le_len + 1);
	le->le_hist_pos++;
	le_replace(le, ledit_hist_get(le, le->le_hist_pos));
}

static void le_hist_down(struct ledit *le)
{
	if (le->le_hist_pos < 0)
		return;
	le->le_hist_pos--;
	if (le->le_hist_pos < 0)
		le_replace(le, le->le_saved);
	else
		le_replace(le, ledit_hist_get(le, le->le_hist_pos));
}

/* --- logical keys -------------------------------------------------------- */

static void le_key(struct ledit *le, enum ledit_key key)
{
	switch (key) {
	case LK_LEFT:   if (le->le_cur > 0) le_move_to(le, le->le_cur - 1); break;
	case LK_RIGHT:  if (le->le_cur < le->le_len) le_move_to(le, le->le_cur + 1); break;
	case LK_HOME:   le_move_to(le, 0); break;
	case LK_END:    le_move_to(le, le->le_len); break;
	case LK_UP:     le_hist_up(le); break;
	case LK_DOWN:   le_hist_down(le); break;
	case LK_DELETE: le_delete_range(le, le->le_cur, MIN(le->le_cur + 1, le->le_len)); break;
	}
}

/* --- escape sequences ---------------------------------------------------- */

/* le_csi_param: the first numeric parameter of the CSI sequence, or 0. */
static unsigned le_csi_param(const struct ledit *le)
{
	unsigned v = 0;

	for (size_t i = 0; i < le->le_csi_len && le->le_csi[i] >= '0' && le->le_csi[i] <= '9'; i++)
		v = v * 10 + (unsigned)(le->le_csi[i] - '0');
	return v;
}

/* le_csi_final: a complete CSI (or SS3) sequence ending in `final`. */
static void le_csi_final(struct ledit *le, uint8_t final)
{
	switch (final) {
	case 'A': le_key(le, LK_UP); break;
	case 'B': le_key(le, LK_DOWN); break;
	case 'C': le_key(le, LK_RIGHT); break;
	case 'D': le_key(le, LK_LEFT); break;
	case 'H': le_key(le, LK_HOME); break;
	case 'F': le_key(le, LK_END); break;
	case '~':
		switch (le_csi_param(le)) {
		case 1: case 7: le_key(le, LK_HOME); break;
		case 4: case 8: le_key(le, LK_END); break;
		case 3: le_key(le, LK_DELETE); break;
		default: break;
		}
		break;
	default: break;                  /* unknown: ignored */
	}
}

/* le_esc_after_esc: the byte after a lone ESC; see le_feed_esc for the result. */
static bool le_esc_after_esc(struct ledit *le, uint8_t c)
{
	le->le_esc = LE_ESC_NONE;
	if (c < 0x20 && c != KEY_ESC)
		return false;                /* e.g. ESC then Enter */
	if (c == '[') {
		le->le_esc = LE_ESC_CSI;
		le->le_csi_len = 0;
	} else if (c == 'O') {
		le->le_esc = LE_ESC_SS3;
	} else if (c == KEY_ESC) {
		le->le_esc = LE_ESC_ESC;
	}
	return true;                     /* ESC x (Alt-x) is ignored */
}

/* le_esc_final: c should end a CSI or SS3 sequence. */
static bool le_esc_final(struct ledit *le, uint8_t c)
{
	le->le_esc = LE_ESC_NONE;
	if (c < 0x40 || c > 0x7e)
		return false;                /* not a final byte: the sequence is cut */
	le_csi_final(le, c);
	return true;
}

/*
 * le_feed_esc: advance the escape parser by c.  Returns true if c was
 * consumed; false if the sequence was cut short by a byte that does not
 * belong to it, which the caller then processes as ordinary input.
 * A CSI sequence is ESC [, parameter bytes 0x30-0x3f, intermediate bytes
 * 0x20-0x2f, and a final byte 0x40-0x7e; SS3 is ESC O and a final byte.
 */
static bool le_feed_esc(struct ledit *le, uint8_t c)
{
	if (le->le_esc == LE_ESC_ESC)
		return le_esc_after_esc(le, c);
	if (le->le_esc == LE_ESC_CSI && c >= 0x30 && c <= 0x3f) {
		if (le->le_csi_len < LEDIT_CSI_MAX)
			le->le_csi[le->le_csi_len++] = (char)c;
		return true;
	}
	if (le->le_esc == LE_ESC_CSI && c >= 0x20 && c <= 0x2f)
		return true;
	return le_esc_final(le, c);
}

/* --- the key dispatch ---------------------------------------------------- */

static enum ledit_event le_enter(struct ledit *le)
{
	le_out(le, "\n", 1);
	le->le_hist_pos = -1;
	if (le->le_toolong) {
		le->le_toolong = false;
		le->le_len = le->le_cur = 0;
		le->le_buf[0] = '\0';
		return LEDIT_TOOLONG;
	}
	ledit_hist_add(le, le->le_buf);
	return LEDIT_LINE;
}

static enum ledit_event le_cancel(struct ledit *le)
{
	le_out(le, "^C\n", 3);
	le->le_toolong = false;
	le->le_hist_pos = -1;
	le->le_len = le->le_cur = 0;
	le->le_buf[0] = '\0';
	return LEDIT_CANCEL;
}

/* le_control: a control byte (or DEL) other than Enter and Ctrl-C. */
static void le_control(struct ledit *le, uint8_t c)
{
	switch (c) {
	case '\b': case KEY_DEL:
		if (le->le_cur > 0)
			le_delete_range(le, le->le_cur - 1, le->le_cur);
		break;
	case CTRL('D'): le_key(le, LK_DELETE); break;
	case CTRL('U'): le_delete_range(le, 0, le->le_cur); break;
	case CTRL('K'): le_delete_range(le, le->le_cur, le->le_len); break;
	case CTRL('W'): le_delete_range(le, le_word_start(le), le->le_cur); break;
	case CTRL('A'): le_key(le, LK_HOME); break;
	case CTRL('E'): le_key(le, LK_END); break;
	case CTRL('B'): le_key(le, LK_LEFT); break;
	case CTRL('F'): le_key(le, LK_RIGHT); break;
	case CTRL('P'): le_key(le, LK_UP); break;
	case CTRL('N'): le_key(le, LK_DOWN); break;
	case CTRL('L'): le_clear_screen(le); break;
	case KEY_ESC:   le->le_esc = LE_ESC_ESC; break;
	default: break;                  /* other control bytes are ignored */
	}
}

/* le_byte: one byte outside any escape sequence. */
static enum ledit_event le_byte(struct ledit *le, uint8_t c)
{
	if (c == '\r' || c == '\n')
		return le_enter(le);
	if (c == CTRL('C'))
		return le_cancel(le);
	if (le->le_toolong)
		return LEDIT_NONE;           /* swallow the rest of an over-long line */
	if (c >= 0x20 && c < 0x7f)
		le_insert(le, (char)c);
	else if (c < 0x20 || c == KEY_DEL)
		le_control(le, c);
	return LEDIT_NONE;               /* bytes >= 0x80 are ignored */
}

/* --- entry points -------------------------------------------------------- */

void ledit_init(struct ledit *le, const char *prompt, ledit_write_fn *write, void *ctx)
{
	memset(le, 0, sizeof(*le));
	le->le_prompt = prompt;
	le->le_write = write;
	le->le_ctx = ctx;
	le->le_hist_head = LEDIT_HIST_MAX - 1;
	le->le_hist_pos = -1;
}

void ledit_start(struct ledit *le)
{
	le->le_len = le->le_cur = 0;
	le->le_buf[0] = '\0';
	le->le_toolong = false;
	le->le_esc = LE_ESC_NONE;
	le->le_hist_pos = -1;
	le_out(le, le->le_prompt, strlen(le->le_prompt));
}

enum ledit_event ledit_feed(struct ledit *le, uint8_t c)
{
	bool after_cr = le->le_last_cr;

	le->le_last_cr = (c == '\r');
	if (c == '\n' && after_cr)
		return LEDIT_NONE;           /* the LF of a CRLF */
	if (le->le_esc != LE_ESC_NONE && le_feed_esc(le, c))
		return LEDIT_NONE;
	return le_byte(le, c);
}

const char *ledit_line(const struct ledit *le)
{
	return le->le_buf;
}
