/*
 * shell_tok.h - split a shell command line into commands and words.
 *
 * The rules are a small subset of sh(1):
 *   - words are separated by blanks (space, tab); ';' ends a command;
 *   - '...' quotes everything literally up to the next ';
 *   - "..." quotes too, but a backslash before " or \ escapes it (any other
 *     backslash is kept as is);
 *   - outside quotes a backslash makes the next byte literal;
 *   - an unquoted '#' at the start of a word starts a comment to the end of
 *     the line;
 *   - '' or "" is an empty word;
 *   - unquoted '|', '>', '>>', '<' and '&' are operators: they end the word
 *     before them and are words of their own, marked in sw_op (a quoted or
 *     escaped one is an ordinary word: `dtrace -n 'a { x = y | z; }'`).
 *     What they mean is the shell's business (shell_pipe.c), but where
 *     they may stand is checked here, as sh's grammar has it, so that a
 *     line with a misplaced one runs nothing: each stage of a pipeline has
 *     a command word, a redirection its file name;
 *   - an unquoted '&' ends a command as ';' does, the command (its last
 *     word the '&') to run in the background: `a & b` is two commands;
 *     `& b`, `a && b` and `a & ; b` are syntax errors, as in sh.
 * Pure code (no kernel calls), tested on the host.
 */
#ifndef SONDE_SHELL_TOK_H
#define SONDE_SHELL_TOK_H

#include <stddef.h>

#define SHELL_MAX_ARGS   64

/*
 * One parsed command: argv[argc] is NULL; the words live in sw_buf, which
 * the caller provides.  strlen(line) + 1 bytes always suffice for any
 * command of line without operators (quotes and escapes only shrink words);
 * each operator may add two bytes (the NULs around it), so 2 * strlen(line)
 * + 1 always suffice.
 */
enum shell_op {
	SHOP_WORD = 0,               /* an ordinary word */
	SHOP_PIPE,                   /* | */
	SHOP_OUT,                    /* > */
	SHOP_APPEND,                 /* >> */
	SHOP_IN,                     /* < */
	SHOP_BG,                     /* & */
};

struct shell_words {
	int sw_argc;
	char *sw_argv[SHELL_MAX_ARGS + 1];
	unsigned char sw_op[SHELL_MAX_ARGS + 1];   /* enum shell_op of each word */
	int sw_nops;                 /* how many words are operators */
	const char *sw_near;         /* after SHTOK_SYNTAX: the word it is near ("|", "newline") */
	char *sw_buf;
	size_t sw_bufsize;
};

enum shell_tok_err {
	SHTOK_OK = 0,
	SHTOK_SQUOTE,                /* unterminated '...' */
	SHTOK_DQUOTE,                /* unterminated "..." */
	SHTOK_TOO_MANY,              /* more than SHELL_MAX_ARGS words */
	SHTOK_TOO_LONG,              /* words do not fit in sw_buf */
	SHTOK_SYNTAX,                /* a misplaced operator (near sw_near) */
};

/*
 * shell_tok_next: parse one command from *linep (up to an unquoted ';',
 * just after an unquoted '&', or the end of the line) into w, and advance
 * *linep past the ';' or '&'.  The line is
 * exhausted when **linep == '\0'.  A command may have no words (";;", a
 * comment, blanks).  Returns SHTOK_OK or an error; on error *linep points at
 * the end of the line.
 */
enum shell_tok_err shell_tok_next(const char **linep, struct shell_words *w);

/* shell_tok_check: SHTOK_OK if every command of line parses, else the first error. */
enum shell_tok_err shell_tok_check(const char *line, struct shell_words *scratch);

/* shell_tok_strerror: a short message for err ("unterminated single quote"). */
const char *shell_tok_strerror(enum shell_tok_err err);

#endif
