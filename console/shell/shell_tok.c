/*
 * shell_tok.c - the shell's tokenizer (rules in shell_tok.h).
 *
 * Theory.  One pass over the line with a cursor (p) and an output position
 * in the word buffer.  A word is built byte by byte: quoted pieces and
 * escaped bytes are appended literally, so 'a'"b"\c is the single word abc.
 * A word ends at an unquoted blank, ';', operator byte (| > < &) or the
 * end of the line; an operator is a word of its own, marked in sw_op; the command
 * ends at ';', after '&', or at the end, and its operators are then checked
 * against sh's grammar (tok_syntax).  Errors stop the parse and skip to the end of the
 * line so that a caller looping over commands terminates.
 *
 * Order: the word buffer, quoted pieces, one word, operators and their
 * syntax, one command, checks.
 *
 * Tests: tests/unit/shell_tok_test.c; self-tests shell_tok_quotes; make
 *        shell-fuzz
 */
#include "console/shell/shell_tok.h"
#include "kernel/klib.h"

/* The state of one parse. */
struct tok {
	const char *t_p;             /* next input byte */
	struct shell_words *t_w;
	size_t t_out;                /* next free byte of sw_buf */
	enum shell_tok_err t_err;
};

static bool tok_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool tok_op_char(char c)
{
	return c == '|' || c == '>' || c == '<' || c == '&';
}

static bool tok_word_end(char c)
{
	return c == '\0' || c == ';' || tok_blank(c) || tok_op_char(c);
}

/* tok_put: append one byte to the current word. */
static void tok_put(struct tok *t, char c)
{
	if (t->t_out >= t->t_w->sw_bufsize) {
		t->t_err = SHTOK_TOO_LONG;
		return;
	}
	t->t_w->sw_buf[t->t_out++] = c;
}

/* tok_squote: after an opening ', copy up to the closing '. */
static void tok_squote(struct tok *t)
{
	while (*t->t_p != '\'' && *t->t_p != '\0' && t->t_err == SHTOK_OK)
		tok_put(t, *t->t_p++);
	if (*t->t_p == '\0')
		t->t_err = SHTOK_SQUOTE;
	else
		t->t_p++;
}

/* tok_dquote: after an opening ", copy up to the closing ", with \" and \\. */
static void tok_dquote(struct tok *t)
{
	while (*t->t_p != '"' && *t->t_p != '\0' && t->t_err == SHTOK_OK) {
		if (t->t_p[0] == '\\' && (t->t_p[1] == '"' || t->t_p[1] == '\\'))
			t->t_p++;
		tok_put(t, *t->t_p++);
	}
	if (*t->t_p == '\0')
		t->t_err = SHTOK_DQUOTE;
	else
		t->t_p++;
}

/* tok_word: parse one word starting at a non-blank, non-';' byte. */
static void tok_word(struct tok *t)
{
	struct shell_words *w = t->t_w;

	if (w->sw_argc >= SHELL_MAX_ARGS) {
		t->t_err = SHTOK_TOO_MANY;
		return;
	}
	w->sw_op[w->sw_argc] = SHOP_WORD;
	w->sw_argv[w->sw_argc++] = w->sw_buf + t->t_out;
	while (!tok_word_end(*t->t_p) && t->t_err == SHTOK_OK) {
		char c = *t->t_p++;
		if (c == '\'')
			tok_squote(t);
		else if (c == '"')
			tok_dquote(t);
		else if (c == '\\' && *t->t_p != '\0')
			tok_put(t, *t->t_p++);
		else
			tok_put(t, c);
	}
	tok_put(t, '\0');
}

/* tok_op: an operator word ("|", ">", ">>", "<", "&") at an operator byte; which one. */
static enum shell_op tok_op(struct tok *t)
{
	struct shell_words *w = t->t_w;
	char c = *t->t_p++;
	enum shell_op op = c == '|' ? SHOP_PIPE : c == '<' ? SHOP_IN : c == '&' ? SHOP_BG : SHOP_OUT;

	if (w->sw_argc >= SHELL_MAX_ARGS) {
		t->t_err = SHTOK_TOO_MANY;
		return op;
	}
	w->sw_op[w->sw_argc] = (unsigned char)op;
	w->sw_argv[w->sw_argc++] = w->sw_buf + t->t_out;
	w->sw_nops++;
	tok_put(t, c);
	if (c == '>' && *t->t_p == '>') {
		w->sw_op[w->sw_argc - 1] = SHOP_APPEND;
		tok_put(t, *t->t_p++);
	}
	tok_put(t, '\0');
	return op;
}

/* tok_syntax_error: the command is not sh's: near is the word it stumbled on. */
static void tok_syntax_error(struct tok *t, const char *near)
{
	t->t_err = SHTOK_SYNTAX;
	t->t_w->sw_near = near;
}

/* tok_after_bg: `&` ended the command; a ';' right after it is an error in sh (`a & ; b`). */
static void tok_after_bg(struct tok *t)
{
	while (tok_blank(*t->t_p))
		t->t_p++;
	if (*t->t_p == ';')
		tok_syntax_error(t, ";");
}

/*
 * tok_syntax: are the command's operators where sh allows them?  Every
 * stage of a pipeline, and what `&` puts in the background, has a
 * command word; a redirection is followed by its file name.  (A command
 * of redirections only, `> f`, is refused: sh would create f.)
 */
static void tok_syntax(struct tok *t)
{
	const struct shell_words *w = t->t_w;
	bool empty = true;                   /* no command word in this stage yet */
	bool piped = false;

	for (int i = 0; i < w->sw_argc && t->t_err == SHTOK_OK; i++) {
		enum shell_op op = (enum shell_op)w->sw_op[i];
		if (op == SHOP_WORD) {
			empty = false;
		} else if (op == SHOP_PIPE || op == SHOP_BG) {
			if (empty)
				tok_syntax_error(t, w->sw_argv[i]);
			empty = true;
			piped |= op == SHOP_PIPE;
		} else if (i + 1 == w->sw_argc || w->sw_op[i + 1] != SHOP_WORD) {
			tok_syntax_error(t, i + 1 == w->sw_argc ? "newline" : w->sw_argv[i + 1]);
		} else {
			i++;                         /* the file name */
		}
	}
	if (t->t_err == SHTOK_OK && empty && w->sw_argc > 0 && w->sw_op[w->sw_argc - 1] != SHOP_BG)
		tok_syntax_error(t, piped ? "|" : "newline");
}

/* tok_skip_comment: an unquoted # at a word start runs to the end of the line. */
static void tok_skip_comment(struct tok *t)
{
	t->t_p += strlen(t->t_p);
}

enum shell_tok_err shell_tok_next(const char **linep, struct shell_words *w)
{
	struct tok t = { .t_p = *linep, .t_w = w, .t_out = 0, .t_err = SHTOK_OK };

	w->sw_argc = 0;
	w->sw_nops = 0;
	for (;;) {
		while (tok_blank(*t.t_p))
			t.t_p++;
		if (*t.t_p == '\0' || *t.t_p == ';' || t.t_err != SHTOK_OK)
			break;
		if (*t.t_p == '#')
			tok_skip_comment(&t);
		else if (!tok_op_char(*t.t_p))
			tok_word(&t);
		else if (tok_op(&t) == SHOP_BG && t.t_err == SHTOK_OK) {
			tok_after_bg(&t);            /* `a & b`: a is a command of its own */
			break;
		}
	}
	if (t.t_err == SHTOK_OK)
		tok_syntax(&t);
	if (*t.t_p == ';')
		t.t_p++;
	if (t.t_err != SHTOK_OK) {
		t.t_p += strlen(t.t_p);
		w->sw_argc = 0;
		w->sw_nops = 0;
	}
	w->sw_argv[w->sw_argc] = NULL;
	w->sw_op[w->sw_argc] = SHOP_WORD;
	*linep = t.t_p;
	return t.t_err;
}

enum shell_tok_err shell_tok_check(const char *line, struct shell_words *scratch)
{
	while (*line != '\0') {
		enum shell_tok_err err = shell_tok_next(&line, scratch);
		if (err != SHTOK_OK)
			return err;
	}
	return SHTOK_OK;
}

const char *shell_tok_strerror(enum shell_tok_err err)
{
	switch (err) {
	case SHTOK_OK:       return "ok";
	case SHTOK_SQUOTE:   return "unterminated single quote";
	case SHTOK_DQUOTE:   return "unterminated double quote";
	case SHTOK_TOO_MANY: return "too many arguments";
	case SHTOK_TOO_LONG: return "command too long";
	case SHTOK_SYNTAX:   return "misplaced operator";
	}
	return "unknown error";
}
