/*
 * ledit.h - the shell's line editor, as a pure byte-fed state machine.
 *
 * The editor knows nothing about the console: the caller feeds it one input
 * byte at a time with ledit_feed(), and the editor answers by calling the
 * caller's write function with the bytes to echo or redraw, and by returning
 * an event when a line is complete.  That keeps it testable on the host.
 *
 * Keys understood:
 *   printable bytes       insert at the cursor
 *   Enter (CR, LF, CRLF)  finish the line                  -> LEDIT_LINE
 *   Backspace, DEL        delete the byte left of the cursor
 *   Ctrl-D                delete the byte under the cursor
 *   Ctrl-U, Ctrl-K        kill to the start / to the end of the line
 *   Ctrl-W                kill the word left of the cursor
 *   Ctrl-A/E, Home/End    cursor to the start / end
 *   Ctrl-B/F, Left/Right  cursor one byte left / right
 *   Ctrl-P/N, Up/Down     previous / next history entry
 *   Ctrl-L                clear the screen and redraw
 *   Ctrl-C                drop the line, print ^C           -> LEDIT_CANCEL
 * Every other control byte and every byte >= 0x80 is ignored.  Escape
 * sequences (ESC [ ... final, ESC O x) are parsed to their end; unknown
 * ones are ignored.  A line longer than LEDIT_LINE_MAX - 1 bytes is not
 * stored: the rest of it is swallowed and Enter reports LEDIT_TOOLONG.
 *
 * Redraws use only backspace, spaces and reprinting, so they work on any
 * terminal and leave no escape sequences in test transcripts.  A line ends
 * with a bare "\n": the write function is expected to map it to the
 * terminal's newline (the kernel console sends CR LF).
 */
#ifndef SONDE_LEDIT_H
#define SONDE_LEDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LEDIT_LINE_MAX   4096    /* bytes, including the terminating NUL */
#define LEDIT_HIST_MAX   16      /* lines of history kept */
#define LEDIT_CSI_MAX    16      /* parameter bytes kept from one CSI sequence */

enum ledit_event {
	LEDIT_NONE,                  /* keep feeding */
	LEDIT_LINE,                  /* a line is ready: ledit_line() */
	LEDIT_CANCEL,                /* Ctrl-C: the line was dropped */
	LEDIT_TOOLONG,               /* Enter after an over-long line; it was dropped */
};

enum ledit_esc_state { LE_ESC_NONE, LE_ESC_ESC, LE_ESC_CSI, LE_ESC_SS3 };

typedef void ledit_write_fn(void *ctx, const char *s, size_t n);

struct ledit {
	char le_buf[LEDIT_LINE_MAX];          /* the line, NUL-terminated */
	size_t le_len;                        /* bytes in le_buf */
	size_t le_cur;                        /* cursor: 0..le_len */
	bool le_toolong;                      /* input overflowed le_buf */
	bool le_last_cr;                      /* previous byte was CR (for CRLF) */
	enum ledit_esc_state le_esc;
	char le_csi[LEDIT_CSI_MAX];           /* CSI parameter bytes */
	size_t le_csi_len;
	char le_hist[LEDIT_HIST_MAX][LEDIT_LINE_MAX];
	int le_hist_count;                    /* entries in use */
	int le_hist_head;                     /* slot of the newest entry */
	int le_hist_pos;                      /* -1: editing a new line; else entries back */
	char le_saved[LEDIT_LINE_MAX];        /* the new line while browsing history */
	const char *le_prompt;
	ledit_write_fn *le_write;
	void *le_ctx;
};

/* ledit_init: set up an empty editor with no history. */
void ledit_init(struct ledit *le, const char *prompt, ledit_write_fn *write, void *ctx);

/* ledit_start: begin a new line: clear it and print the prompt. */
void ledit_start(struct ledit *le);

/* ledit_feed: process one input byte; returns what happened. */
enum ledit_event ledit_feed(struct ledit *le, uint8_t c);

/* ledit_line: the finished line (valid after LEDIT_LINE until ledit_start). */
const char *ledit_line(const struct ledit *le);

/* ledit_hist_add: remember a line (ledit_feed does this for non-empty lines). */
void ledit_hist_add(struct ledit *le, const char *line);

/* ledit_hist_get: the history entry i back (0 = newest), or NULL. */
const char *ledit_hist_get(const struct ledit *le, int i);

#endif
