/*
 * tests/fuzz/shell_fuzz.c: libFuzzer target for the console shell: random
 * console bytes through the line editor, the tokenizer and the commands.
 *
 * What is built: console/shell/ledit.c, shell_tok.c, shell.c,
 * shell_cmds.c, shell_files.c and console/workloads/workload.c, on the
 * host, against the pretend kernel of the shell's unit tests
 * (tests/unit/shell_fake_kernel.c: threads, clock, symbols, memory
 * statistics, power-off as a longjmp) plus a three-file boot file table
 * here. Not built: the dtrace command (it needs the tracing framework) and
 * the real workloads (they only run in the kernel); `run` sees one pretend
 * workload.
 *
 * Input: byte 0 picks the mode. Even: every following byte is a console
 * byte, fed to the editor as shell_thread() does (this file repeats its
 * loop, which never returns): a finished line is run by shell_run_line().
 * Odd: the rest of the input is one raw command line (NUL-terminated),
 * given to shell_run_line() directly, as the boot option cmd= and
 * tools/dtrace --shell do, so bytes the editor never lets through (tabs,
 * quotes of any kind, bytes >= 0x80) reach the tokenizer too.
 *
 * Invariants (abort on violation), besides no sanitizer report:
 *   - the editor's state is consistent after every byte (length below
 *     LEDIT_LINE_MAX, cursor within the line, NUL at the end, no NUL or
 *     control byte inside);
 *   - what the editor wrote, replayed on a model terminal (printable bytes,
 *     backspace, newline, the clear-screen sequence), shows exactly the
 *     prompt and the line, with the terminal's cursor at the editor's
 *     cursor: the user sees what the shell will run;
 *   - every command ends: sleeping is cut by a pretend Ctrl-C after 3 s of
 *     fake time, halt and reboot return through the fake's longjmp;
 *   - a line that returns frees all it allocated. The shell's kmalloc and
 *     kfree are wrapped (the link uses --wrap) to keep the set of live
 *     blocks; after halt or reboot, which never return in the kernel, the
 *     blocks of the abandoned line are freed here instead.
 */
#include "tests/unit/shell_fake_kernel.h"
#include "console/shell/ledit.h"
#include "console/shell/shell.h"
#include "console/shell/shell_tok.h"
#include "console/workloads/workload.h"
#include "kernel/kfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fuzz_wl_main(const struct wl_params *p)
{
	(void)p;
	return 0;
}
WORKLOAD(fuzzwork, fuzz_wl_main, "fuzzwork [N]", "a pretend workload");

/* --- a boot file table (kernel/kfile.c needs the boot modules) ----------- */

static const struct kfile fuzz_files[] = {
	{ "scripts/hello.d", (const unsigned char *)"BEGIN { trace(1); }\n", 20 },
	{ "scripts/tick.d", (const unsigned char *)"tick-1s { exit(0); }\n", 21 },
	{ "x/y.d", (const unsigned char *)"\0\1\2", 3 },
};

const struct kfile *kfile_lookup(const char *path)
{
	path = kfile_path_trim(path);
	for (size_t i = 0; i < sizeof(fuzz_files) / sizeof(fuzz_files[0]); i++)
		if (strcmp(fuzz_files[i].kf_name, path) == 0)
			return &fuzz_files[i];
	return NULL;
}

bool kfile_foreach(kfile_fn *fn, void *arg)
{
	for (size_t i = 0; i < sizeof(fuzz_files) / sizeof(fuzz_files[0]); i++)
		if (!fn(&fuzz_files[i], arg))
			return false;
	return true;
}

/* --- allocations (ld --wrap=kmalloc,--wrap=kzalloc,--wrap=kfree) -------- */

#define LIVE_MAX 64

void *__real_kmalloc(size_t size);
void *__real_kzalloc(size_t size);
void __real_kfree(void *p);
void *__wrap_kmalloc(size_t size);
void *__wrap_kzalloc(size_t size);
void __wrap_kfree(void *p);

static void *live[LIVE_MAX];
static int nlive;

static void *live_add(void *p)
{
	if (p != NULL) {
		if (nlive == LIVE_MAX) {
			fprintf(stderr, "more than %d blocks live at once\n", LIVE_MAX);
			abort();
		}
		live[nlive++] = p;
	}
	return p;
}

void *__wrap_kmalloc(size_t size) { return live_add(__real_kmalloc(size)); }
void *__wrap_kzalloc(size_t size) { return live_add(__real_kzalloc(size)); }

void __wrap_kfree(void *p)
{
	for (int i = 0; i < nlive; i++)
		if (live[i] == p) {
			live[i] = live[--nlive];
			break;
		}
	__real_kfree(p);
}

/* --- the model terminal -------------------------------------------------- */

#define TERM_COLS (LEDIT_LINE_MAX + 64)

static struct {
	char row[TERM_COLS + 1];
	size_t len;              /* columns written on this row */
	size_t col;              /* the cursor */
	int esc;                 /* 0; 1 after ESC; 2 inside ESC [ */
} term;

static void term_clear(void)
{
	memset(term.row, ' ', sizeof(term.row));
	term.len = term.col = 0;
	term.esc = 0;
}

static void term_byte(char c)
{
	if (term.esc == 1) {
		term.esc = c == '[' ? 2 : 0;
		return;
	}
	if (term.esc == 2) {
		if (c >= 0x40 && c <= 0x7e) {
			term.esc = 0;
			if (c == 'H' || c == 'J')  /* home, erase: the screen starts over */
				term_clear();
		}
		return;
	}
	if (c == '\x1b') {
		term.esc = 1;
	} else if (c == '\b') {
		if (term.col > 0)
			term.col--;
	} else if (c == '\n') {
		term_clear();
	} else if (c >= 0x20 && c < 0x7f) {
		if (term.col >= TERM_COLS) {
			fprintf(stderr, "the editor wrote past %d columns\n", TERM_COLS);
			abort();
		}
		term.row[term.col++] = c;
		if (term.col > term.len)
			term.len = term.col;
	} else {
		fprintf(stderr, "the editor wrote control byte 0x%02x\n", (unsigned char)c);
		abort();
	}
}

static void term_write(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	for (size_t i = 0; i < n; i++)
		term_byte(s[i]);
}

/* --- invariants ---------------------------------------------------------- */

static void ledit_check(const struct ledit *le)
{
	size_t plen = strlen(SHELL_PROMPT), shown = term.len;

	if (le->le_len >= LEDIT_LINE_MAX || le->le_cur > le->le_len ||
	    le->le_buf[le->le_len] != '\0' || strlen(le->le_buf) != le->le_len) {
		fprintf(stderr, "editor state: len %zu cur %zu\n", le->le_len, le->le_cur);
		abort();
	}
	for (size_t i = 0; i < le->le_len; i++)
		if ((unsigned char)le->le_buf[i] < 0x20 || (unsigned char)le->le_buf[i] >= 0x7f) {
			fprintf(stderr, "control byte in the line at %zu\n", i);
			abort();
		}
	if (term.esc != 0)
		return;              /* the editor is between the parts of a sequence */
	while (shown > plen + le->le_len && term.row[shown - 1] == ' ')
		shown--;             /* blanks that erased old text */
	if (shown != plen + le->le_len || memcmp(term.row, SHELL_PROMPT, plen) != 0 ||
	    memcmp(term.row + plen, le->le_buf, le->le_len) != 0 ||
	    term.col != plen + le->le_cur) {
		term.row[term.len] = '\0';
		fprintf(stderr, "screen differs from the line:\nscreen \"%s\" col %zu\n"
		        "line   \"%s%s\" cur %zu\n", term.row, term.col, SHELL_PROMPT,
		        le->le_buf, plen + le->le_cur);
		abort();
	}
}

/* --- running lines ------------------------------------------------------- */

/*
 * threads_run: the fake kernel never runs the threads a line spawns; each
 * would free the start block it was handed (a workload's wl_start), so
 * free those still live, or every `run` would count as a leak.
 */
static void threads_run(void)
{
	for (int i = 0; i < fk.ncreated_args; i++)
		for (int j = 0; j < nlive; j++)
			if (live[j] == fk.created_args[i]) {
				__wrap_kfree(live[j]);
				break;
			}
}

static void run_line(const char *line)
{
	fk_reset();
	fk.ctrl_c_at_ns = fk.now_ns + 3000000000ull;   /* every sleep ends */
	if (setjmp(fk.exit_jmp) == 0) {
		shell_run_line(line);
		threads_run();
		if (nlive != 0) {
			fprintf(stderr, "the line \"%s\" leaked %d block(s)\n", line, nlive);
			abort();
		}
	}
	while (nlive > 0)            /* halt, reboot: the line was abandoned */
		__wrap_kfree(live[nlive - 1]);
}

static void feed_console(struct ledit *le, const uint8_t *data, size_t size)
{
	term_clear();
	ledit_start(le);
	for (size_t i = 0; i < size; i++) {
		switch (ledit_feed(le, data[i])) {
		case LEDIT_LINE:
			run_line(ledit_line(le));
			term_clear();
			ledit_start(le);
			break;
		case LEDIT_TOOLONG:
		case LEDIT_CANCEL:
			term_clear();
			ledit_start(le);
			break;
		case LEDIT_NONE:
			break;
		}
		ledit_check(le);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ledit le;      /* large (history): not on the stack */

	if (size == 0)
		return 0;
	if (data[0] & 1) {
		char *line = malloc(size);   /* exact size: ASan sees any overrun */
		memcpy(line, data + 1, size - 1);
		line[size - 1] = '\0';
		run_line(line);
		free(line);
		return 0;
	}
	ledit_init(&le, SHELL_PROMPT, term_write, NULL);
	feed_console(&le, data + 1, size - 1);
	return 0;
}
