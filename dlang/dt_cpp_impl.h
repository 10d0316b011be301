/*
 * dlang/dt_cpp_impl.h: the preprocessor's private interface, shared by
 * dt_cpp.c (memory, errors, strings, cleaning, directives, files, the entry
 * point) and dt_cpp_expand.c (macros, expansion, #if expressions).  Not for
 * use outside those two files; dt_cpp.h is the public interface, and
 * dt_cpp.c's opening comment the theory.
 */
#ifndef DLANG_DT_CPP_IMPL_H
#define DLANG_DT_CPP_IMPL_H

#include "dlang/dt_cpp.h"

#define CPP_MAXDEPTH   16              /* #include nesting (kernel stacks are 16 KiB) */
#define CPP_MAXCOND    64              /* #if nesting */
#define CPP_MAXARGS    16              /* a function-like macro's parameters */
#define CPP_HASH       64
#define CPP_MAXEXPAND  16              /* nested expansions of one line */
#define CPP_MAXPAREN   12              /* parentheses in an #if expression */

/* CPP_STR: a limit above as a string literal, for the message that names it. */
#define CPP_STR(n)     CPP_STR_(n)
#define CPP_STR_(n)    #n

typedef struct cpp_macro {
	struct cpp_macro *m_next;
	const char *m_name;
	size_t m_nlen;
	const char *m_body;
	size_t m_blen;
	int m_nparams;                  /* -1: object-like */
	bool m_variadic;                /* the last parameter is ... (__VA_ARGS__) */
	const char *m_params[CPP_MAXARGS];
	size_t m_plens[CPP_MAXARGS];
	bool m_active;                  /* being expanded: not again */
} cpp_macro;

typedef struct cpp_cond {
	bool cc_parent;                 /* the section around it is active */
	bool cc_taken;                  /* a branch was taken */
	bool cc_active;                 /* the current branch is active */
	bool cc_else;                   /* #else seen */
	uint32_t cc_line, cc_col;
	const char *cc_word;            /* "if", "ifdef", "ifndef": for "unterminated #..." */
} cpp_cond;

typedef struct cpp_file {
	const char *cf_name;
	const char *cf_text;            /* cleaned */
	size_t cf_len, cf_pos;
	uint32_t cf_line;               /* of the line being processed */
	uint32_t cf_nextline;
} cpp_file;

typedef struct cpp_buf {
	char *b_p;
	size_t b_len, b_cap;
} cpp_buf;

typedef struct cpp {
	const dt_cpp_opts *c_o;
	char *c_mem;
	size_t c_size, c_lo, c_hi;      /* output: [0, lo); allocations: [hi, size) */
	void *c_jmp[5];
	dt_cpp_error *c_err;
	int c_rc;
	cpp_macro *c_macros[CPP_HASH];
	cpp_cond c_conds[CPP_MAXCOND];
	int c_nconds;
	int c_depth;                    /* of #include: 0 for the program */
	cpp_file *c_file;               /* the file being read */
	uint32_t c_mark;                /* while depth > 0: the program line to number lines by */
	bool c_remark;                  /* the next program line needs a #line */
	uint32_t c_mainline;            /* the program's current line */
	uint32_t c_restcol;             /* a directive's column after its name */
	int c_nexpand;
} cpp;

/* ---- characters and words (inline: both files use them everywhere) ---- */

static inline size_t cpp_strlen(const char *s)
{
	size_t n = 0;

	while (s[n] != 0)
		n++;
	return n;
}

static inline bool is_idstart(int ch) { return (ch | 32) >= 'a' && (ch | 32) <= 'z' ? true : ch == '_'; }

static inline bool is_digit(int ch) { return ch >= '0' && ch <= '9'; }

static inline bool is_idchar(int ch) { return is_idstart(ch) || is_digit(ch); }

static inline bool is_blank(int ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v'; }

static inline bool name_eq(const char *a, size_t an, const char *b, size_t bn)
{
	if (an != bn)
		return false;
	for (size_t i = 0; i < an; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static inline bool word_is(const char *a, size_t an, const char *word)
{
	return name_eq(a, an, word, cpp_strlen(word));
}

static inline size_t skip_blanks(const char *s, size_t i, size_t n)
{
	while (i < n && is_blank(s[i]))
		i++;
	return i;
}

static inline size_t skip_ident(const char *s, size_t i, size_t n)
{
	while (i < n && is_idchar(s[i]))
		i++;
	return i;
}

/* ---- dt_cpp.c ---- */

void *dt_cpp_alloc(cpp *c, size_t n);                 /* from the arena's top; NOMEM unwinds */
/* dt_cpp_fail: an error at the current line (col 0: 1); one "%" in msg takes arg. Unwinds. */
_Noreturn void dt_cpp_fail(cpp *c, const char *kind, uint32_t col, const char *msg,
                           const char *arg, size_t arglen);
void dt_cpp_copy(char *to, size_t size, const char *s, size_t n);   /* terminated, cut */
void dt_cpp_buf_add(cpp *c, cpp_buf *b, const char *s, size_t n);
void dt_cpp_buf_num(cpp *c, cpp_buf *b, uint64_t v);
size_t dt_cpp_skip_literal(const char *s, size_t i, size_t n);     /* past "..." or '...' */
size_t dt_cpp_skip_ppnumber(const char *s, size_t i, size_t n);    /* past 1s, 0x1f, 1e+5 */
void dt_cpp_trim(const char **s, size_t *n);                       /* blanks off both ends */

/* ---- dt_cpp_expand.c ---- */

cpp_macro *dt_cpp_macro_find(cpp *c, const char *s, size_t n);
void dt_cpp_macro_undef(cpp *c, const char *s, size_t n);
void dt_cpp_macro_define(cpp *c, const char *s, size_t n);         /* #define's text */
void dt_cpp_macro_cmdline(cpp *c, const char *def);                /* "Dname=v", "Uname" */
void dt_cpp_expand(cpp *c, const char *s, size_t n, cpp_buf *out); /* macros expanded */
bool dt_cpp_cond_eval(cpp *c, const char *s, size_t n);            /* #if's expression */
uint32_t dt_cpp_line_number(cpp *c, const char *s, size_t n);      /* #line's number */

#endif
