/*
 * dt_cpp.c - the C preprocessor in front of the D compiler (dtrace -C).
 *
 * One pass per file, a line at a time.  First each file is cleaned:
 * comments become a space, backslash-newline pairs join lines (the lines
 * they remove come back as empty lines after the joined one, so line
 * numbers stay right).  Then each line is either a directive (first
 * non-blank character '#') or text; text in an active section is copied
 * with its macros expanded, a line in a skipped section or a directive
 * becomes an empty line.  #include processes the named file in place
 * (dt_cpp.h says how the lines are numbered then).
 *
 * Macro expansion is the classic simplified one: a macro is not expanded
 * again inside its own expansion (an "active" flag on the macro while its
 * replacement is rescanned); arguments are expanded before they are
 * substituted, except next to # and ##.  Strings, character constants and
 * numbers (pp-numbers: 1s, 0x1f, 10ms) are copied untouched, so D's
 * tick-1s, fbt::f:entry and kernel`sym survive unless a name in them is a
 * macro.
 *
 * Memory: one arena; the output grows from its bottom, everything else
 * (cleaned files, macros, scratch strings) is taken from its top; when
 * they meet the run stops with DT_CPP_NOMEM and the caller retries with
 * more.  Errors unwind with __builtin_longjmp to dt_cpp(), as the
 * compiler's do.  Context: any; freestanding.
 *
 * Order: memory and errors, strings, macros, cleaning, expansion, #if
 * expressions, directives, files, the entry point.
 */
#include "dlang/dt_cpp.h"

#define CPP_MAXDEPTH   16              /* #include nesting (kernel stacks are 16 KiB) */
#define CPP_MAXCOND    64              /* #if nesting */
#define CPP_MAXARGS    16              /* a function-like macro's parameters */
#define CPP_HASH       64
#define CPP_MAXEXPAND  16              /* nested expansions of one line */
#define CPP_MAXPAREN   12              /* parentheses in an #if expression */

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

/* ---- memory and errors ---- */

static _Noreturn void cpp_nomem(cpp *c)
{
	c->c_rc = DT_CPP_NOMEM;
	__builtin_longjmp(c->c_jmp, 1);
}

static void *cpp_alloc(cpp *c, size_t n)
{
	n = (n + 7) & ~(size_t)7;
	if (n > c->c_hi - c->c_lo)
		cpp_nomem(c);
	c->c_hi -= n;
	return c->c_mem + c->c_hi;
}

static void cpp_emit(cpp *c, const char *s, size_t n)
{
	if (n + 1 > c->c_hi - c->c_lo)
		cpp_nomem(c);
	for (size_t i = 0; i < n; i++)
		c->c_mem[c->c_lo + i] = s[i];
	c->c_lo += n;
}

static size_t cpp_strlen(const char *s)
{
	size_t n = 0;

	while (s[n] != 0)
		n++;
	return n;
}

static void cpp_copy(char *to, size_t size, const char *s, size_t n)
{
	size_t k = n < size - 1 ? n : size - 1;

	for (size_t i = 0; i < k; i++)
		to[i] = s[i];
	to[k] = 0;
}

/* cpp_fail: the error at the current line of the current file; col 0 means 1. */
static _Noreturn void cpp_fail(cpp *c, const char *kind, uint32_t col, const char *msg,
                               const char *arg, size_t arglen)
{
	dt_cpp_error *e = c->c_err;
	size_t n = 0;

	cpp_copy(e->ce_file, sizeof(e->ce_file), c->c_file->cf_name, cpp_strlen(c->c_file->cf_name));
	e->ce_line = c->c_file->cf_line;
	e->ce_col = col ? col : 1;
	e->ce_kind = kind;
	for (const char *m = msg; *m && n + 1 < sizeof(e->ce_msg); m++) {
		if (*m == '%' && arg != NULL) {          /* one "%" in msg: arg goes there */
			for (size_t i = 0; i < arglen && n + 1 < sizeof(e->ce_msg); i++)
				e->ce_msg[n++] = arg[i];
			arg = NULL;
		} else {
			e->ce_msg[n++] = *m;
		}
	}
	e->ce_msg[n] = 0;
	c->c_rc = DT_CPP_ERROR;
	__builtin_longjmp(c->c_jmp, 1);
}

/* ---- strings ---- */

static bool is_idstart(int ch) { return (ch | 32) >= 'a' && (ch | 32) <= 'z' ? true : ch == '_'; }
static bool is_digit(int ch) { return ch >= '0' && ch <= '9'; }
static bool is_idchar(int ch) { return is_idstart(ch) || is_digit(ch); }
static bool is_blank(int ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v'; }

static bool name_eq(const char *a, size_t an, const char *b, size_t bn)
{
	if (an != bn)
		return false;
	for (size_t i = 0; i < an; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static bool word_is(const char *a, size_t an, const char *word)
{
	return name_eq(a, an, word, cpp_strlen(word));
}

static void buf_add(cpp *c, cpp_buf *b, const char *s, size_t n)
{
	if (b->b_len + n + 1 > b->b_cap) {
		size_t cap = (b->b_cap ? b->b_cap * 2 : 256) + n;
		char *p = cpp_alloc(c, cap);
		for (size_t i = 0; i < b->b_len; i++)
			p[i] = b->b_p[i];
		b->b_p = p;
		b->b_cap = cap;
	}
	for (size_t i = 0; i < n; i++)
		b->b_p[b->b_len + i] = s[i];
	b->b_len += n;
	b->b_p[b->b_len] = 0;
}

static void buf_num(cpp *c, cpp_buf *b, uint64_t v)
{
	char d[24];
	int n = 0;

	do
		d[sizeof(d) - 1 - n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	buf_add(c, b, d + sizeof(d) - n, (size_t)n);
}

/* skip_literal: s[i] opens a string or character constant: the index after it (or n). */
static size_t skip_literal(const char *s, size_t i, size_t n)
{
	char q = s[i++];

	while (i < n && s[i] != q && s[i] != '\n') {
		if (s[i] == '\\' && i + 1 < n)
			i++;
		i++;
	}
	return i < n && s[i] == q ? i + 1 : i;
}

/* skip_ppnumber: a pp-number from s[i] (a digit, or . digit). */
static size_t skip_ppnumber(const char *s, size_t i, size_t n)
{
	while (i < n && (is_idchar(s[i]) || s[i] == '.' ||
	       ((s[i] == '+' || s[i] == '-') && (s[i - 1] | 32) == 'e')))
		i++;
	return i;
}

static size_t skip_blanks(const char *s, size_t i, size_t n)
{
	while (i < n && is_blank(s[i]))
		i++;
	return i;
}

static size_t skip_ident(const char *s, size_t i, size_t n)
{
	while (i < n && is_idchar(s[i]))
		i++;
	return i;
}

/* ---- macros ---- */

static unsigned macro_hash(const char *s, size_t n)
{
	unsigned h = 5381;

	for (size_t i = 0; i < n; i++)
		h = h * 33 + (unsigned char)s[i];
	return h % CPP_HASH;
}

static cpp_macro *macro_find(cpp *c, const char *s, size_t n)
{
	for (cpp_macro *m = c->c_macros[macro_hash(s, n)]; m != NULL; m = m->m_next)
		if (name_eq(m->m_name, m->m_nlen, s, n))
			return m;
	return NULL;
}

static void macro_undef(cpp *c, const char *s, size_t n)
{
	cpp_macro **pp = &c->c_macros[macro_hash(s, n)];

	for (; *pp != NULL; pp = &(*pp)->m_next)
		if (name_eq((*pp)->m_name, (*pp)->m_nlen, s, n)) {
			*pp = (*pp)->m_next;
			return;
		}
}

static cpp_macro *macro_new(cpp *c, const char *name, size_t n)
{
	cpp_macro *m = cpp_alloc(c, sizeof(*m));
	char *copy = cpp_alloc(c, n + 1);

	cpp_copy(copy, n + 1, name, n);
	*m = (cpp_macro){ .m_name = copy, .m_nlen = n, .m_body = "", .m_nparams = -1 };
	macro_undef(c, name, n);                 /* a redefinition replaces it */
	unsigned h = macro_hash(name, n);
	m->m_next = c->c_macros[h];
	c->c_macros[h] = m;
	return m;
}

/* macro_params: "(a, b, ...)" from s[i]; returns the index after ')'. */
static size_t macro_params(cpp *c, cpp_macro *m, const char *s, size_t i, size_t n)
{
	m->m_nparams = 0;
	i = skip_blanks(s, i + 1, n);
	if (i < n && s[i] == ')')
		return i + 1;
	for (;;) {
		size_t start = i;
		if (i + 2 < n && s[i] == '.' && s[i + 1] == '.' && s[i + 2] == '.') {
			m->m_variadic = true;
			m->m_params[m->m_nparams] = "__VA_ARGS__";
			m->m_plens[m->m_nparams++] = 11;
			i = skip_blanks(s, i + 3, n);
			if (i < n && s[i] == ')')
				return i + 1;
			cpp_fail(c, "error", 0, "missing ')' in macro parameter list", NULL, 0);
		}
		i = skip_ident(s, i, n);
		if (i == start || m->m_nparams == CPP_MAXARGS)
			cpp_fail(c, "error", 0, "expected parameter name, found \"%\"", s + start,
			         start < n ? 1 : 0);
		m->m_params[m->m_nparams] = s + start;
		m->m_plens[m->m_nparams++] = i - start;
		i = skip_blanks(s, i, n);
		if (i < n && s[i] == ')')
			return i + 1;
		if (i >= n || s[i] != ',')
			cpp_fail(c, "error", 0, "expected ',' or ')', found \"%\"", s + i, i < n ? 1 : 0);
		i = skip_blanks(s, i + 1, n);
	}
}

/* macro_define: the text of "#define" after the word: NAME[(params)] body. */
static void macro_define(cpp *c, const char *s, size_t n)
{
	size_t i = skip_blanks(s, 0, n), start = i;

	if (i < n && is_idstart(s[i]))
		i = skip_ident(s, i, n);
	if (i == start)
		cpp_fail(c, "error", 0, i < n ? "macro names must be identifiers" :
		         "no macro name given in #define directive", NULL, 0);
	cpp_macro *m = macro_new(c, s + start, i - start);
	if (i < n && s[i] == '(')
		i = macro_params(c, m, s, i, n);
	i = skip_blanks(s, i, n);
	while (n > i && is_blank(s[n - 1]))
		n--;
	char *body = cpp_alloc(c, n - i + 1);
	size_t bl = 0;
	for (size_t k = i; k < n;) {                 /* blanks between tokens: one space */
		if (s[k] == '"' || s[k] == '\'') {
			size_t e = skip_literal(s, k, n);
			while (k < e)
				body[bl++] = s[k++];
		} else if (is_blank(s[k])) {
			body[bl++] = ' ';
			k = skip_blanks(s, k, n);
		} else {
			body[bl++] = s[k++];
		}
	}
	body[bl] = 0;
	m->m_body = body;
	m->m_blen = bl;
	for (int k = 0; k < m->m_nparams; k++) {     /* parameters point into the body's copy */
		char *p = cpp_alloc(c, m->m_plens[k] + 1);
		cpp_copy(p, m->m_plens[k] + 1, m->m_params[k], m->m_plens[k]);
		m->m_params[k] = p;
	}
}

/* macro_cmdline: -D name[=value] ("Dname=value": value, or 1) and -U name ("Uname"). */
static void macro_cmdline(cpp *c, const char *def)
{
	const char *s = def + 1;
	size_t n = cpp_strlen(s), eq = 0;

	if (def[0] == 'U') {
		macro_undef(c, s, n);
		return;
	}
	while (eq < n && s[eq] != '=')
		eq++;
	cpp_buf b = { 0 };
	buf_add(c, &b, s, eq);
	buf_add(c, &b, " ", 1);
	if (eq < n)
		buf_add(c, &b, s + eq + 1, n - eq - 1);
	else
		buf_add(c, &b, "1", 1);
	macro_define(c, b.b_p, b.b_len);
}

/* ---- cleaning: comments and continued lines ---- */

/* clean_comment: s[i] starts a comment: the index after it (a newline of // stays). */
static size_t clean_comment(cpp *c, cpp_buf *b, const char *s, size_t i, size_t n,
                            uint32_t *pending)
{
	if (s[i + 1] == '/') {
		while (i < n && s[i] != '\n')
			i++;
		return i;
	}
	for (i += 2; i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'); i++)
		*pending += s[i] == '\n';
	if (i + 1 >= n)
		return (size_t)-1;
	buf_add(c, b, " ", 1);
	return i + 2;
}

/*
 * clean: the file's text with comments replaced by a space and
 * backslash-newlines removed; each removed newline comes back after the
 * end of its logical line, so every later line keeps its number.
 */
static const char *clean(cpp *c, const char *s, size_t n, size_t *outlen, uint32_t *badline)
{
	cpp_buf b = { 0 };
	uint32_t pending = 0, line = 1;

	buf_add(c, &b, "", 0);
	for (size_t i = 0; i < n;) {
		if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {
			pending++;
			i += 2;
		} else if (s[i] == '/' && i + 1 < n && (s[i + 1] == '*' || s[i + 1] == '/')) {
			uint32_t before = pending;
			size_t j = clean_comment(c, &b, s, i, n, &pending);
			if (j == (size_t)-1) {
				*badline = line;
				return NULL;
			}
			line += pending - before;
			i = j;
		} else if (s[i] == '"' || s[i] == '\'') {
			size_t j = skip_literal(s, i, n);
			buf_add(c, &b, s + i, j - i);
			i = j;
		} else if (s[i] == '\n') {
			for (; pending > 0; pending--)
				buf_add(c, &b, "\n", 1);
			buf_add(c, &b, "\n", 1);
			line++;
			i++;
		} else {
			buf_add(c, &b, s + i, 1);
			i++;
		}
	}
	for (; pending > 0; pending--)
		buf_add(c, &b, "\n", 1);
	*outlen = b.b_len;
	return b.b_p;
}

/* ---- expansion ---- */

static void expand(cpp *c, const char *s, size_t n, cpp_buf *out);

static void trim(const char **s, size_t *n)
{
	while (*n > 0 && is_blank(**s))
		(*s)++, (*n)--;
	while (*n > 0 && is_blank((*s)[*n - 1]))
		(*n)--;
}

/* macro_args: the arguments of an invocation, s[i] == '('; the index after ')'. */
static size_t macro_args(cpp *c, const cpp_macro *m, const char *s, size_t i, size_t n,
                         const char **args, size_t *lens, int *nargs)
{
	int depth = 0, k = 0;
	size_t start = ++i;

	for (; i < n; i++) {
		char ch = s[i];
		if (ch == '"' || ch == '\'') {
			i = skip_literal(s, i, n) - 1;
		} else if (ch == '(') {
			depth++;
		} else if ((ch == ',' && depth == 0 && !(m->m_variadic && k == m->m_nparams - 1)) ||
		           (ch == ')' && depth == 0)) {
			if (k == CPP_MAXARGS)
				cpp_fail(c, "error", 0, "macro \"%\" passed too many arguments",
				         m->m_name, m->m_nlen);
			args[k] = s + start;
			lens[k] = i - start;
			trim(&args[k], &lens[k]);
			k++;
			start = i + 1;
			if (ch == ')') {
				*nargs = k;
				return i + 1;
			}
		} else if (ch == ')') {
			depth--;
		}
	}
	cpp_fail(c, "error", 0, "unterminated argument list invoking macro \"%\"", m->m_name, m->m_nlen);
}


/* stringify: # arg: the argument's text in quotes, " and \ of literals escaped. */
static void stringify(cpp *c, cpp_buf *out, const char *a, size_t n)
{
	bool in_lit = false;
	char q = 0;

	trim(&a, &n);
	buf_add(c, out, "\"", 1);
	for (size_t i = 0; i < n; i++) {
		if (!in_lit && (a[i] == '"' || a[i] == '\'')) {
			in_lit = true;
			q = a[i];
		} else if (in_lit && a[i] == q && a[i - 1] != '\\') {
			in_lit = false;
		}
		if ((a[i] == '"' || a[i] == '\\') && (in_lit || a[i] == '"'))
			buf_add(c, out, "\\", 1);
		buf_add(c, out, a + i, 1);
	}
	buf_add(c, out, "\"", 1);
}

static int param_index(const cpp_macro *m, const char *s, size_t n)
{
	for (int k = 0; k < m->m_nparams; k++)
		if (name_eq(m->m_params[k], m->m_plens[k], s, n))
			return k;
	return -1;
}

/* next_is_paste: after s[i..], blanks then "##"? */
static bool next_is_paste(const char *s, size_t i, size_t n)
{
	i = skip_blanks(s, i, n);
	return i + 1 < n && s[i] == '#' && s[i + 1] == '#';
}

/* substitute: the body of m with the arguments put in (before the rescan). */
static void substitute(cpp *c, const cpp_macro *m, const char **args, const size_t *lens,
                       cpp_buf *out)
{
	const char *s = m->m_body;
	size_t n = m->m_blen;
	bool pasting = false;                    /* the previous token was ## */

	for (size_t i = 0; i < n;) {
		if (s[i] == '#' && i + 1 < n && s[i + 1] == '#') {
			while (out->b_len > 0 && is_blank(out->b_p[out->b_len - 1]))
				out->b_len--;
			i = skip_blanks(s, i + 2, n);
			pasting = true;
			continue;
		}
		if (s[i] == '#' && m->m_nparams >= 0) {
			size_t j = skip_blanks(s, i + 1, n), e = skip_ident(s, j, n);
			int k = param_index(m, s + j, e - j);
			if (k >= 0) {
				stringify(c, out, args[k], lens[k]);
				i = e;
				pasting = false;
				continue;
			}
		}
		if (is_idstart(s[i])) {
			size_t e = skip_ident(s, i, n);
			int k = param_index(m, s + i, e - i);
			if (k >= 0 && (pasting || next_is_paste(s, e, n))) {
				const char *a = args[k];
				size_t an = lens[k];
				trim(&a, &an);
				buf_add(c, out, a, an);
			} else if (k >= 0) {
				expand(c, args[k], lens[k], out);
			} else {
				buf_add(c, out, s + i, e - i);
			}
			i = e;
		} else if (s[i] == '"' || s[i] == '\'') {
			size_t e = skip_literal(s, i, n);
			buf_add(c, out, s + i, e - i);
			i = e;
		} else {
			buf_add(c, out, s + i, 1);
			i++;
		}
		pasting = false;
	}
}

/* expand_macro: m's expansion (arguments from s[*i] if function-like), rescanned, into out. */
static void expand_macro(cpp *c, cpp_macro *m, const char *s, size_t *i, size_t n, cpp_buf *out)
{
	const char *args[CPP_MAXARGS];
	size_t lens[CPP_MAXARGS];
	int nargs = 0;
	cpp_buf body = { 0 };

	if (m->m_nparams >= 0) {
		*i = macro_args(c, m, s, *i, n, args, lens, &nargs);
		if (nargs == 1 && m->m_nparams == 0) {   /* f(): one empty argument, none wanted */
			const char *a = args[0];
			size_t an = lens[0];
			trim(&a, &an);
			nargs = an == 0 ? 0 : 1;
		}
		if (m->m_variadic && nargs == m->m_nparams - 1) {
			args[nargs] = "";
			lens[nargs++] = 0;
		}
		if (nargs != m->m_nparams)
			cpp_fail(c, "error", 0, nargs < m->m_nparams ?
			         "macro \"%\" requires more arguments than given" :
			         "macro \"%\" passed more arguments than it takes", m->m_name, m->m_nlen);
	}
	substitute(c, m, args, lens, &body);
	if (++c->c_nexpand > CPP_MAXEXPAND)
		cpp_fail(c, "error", 0, "macro \"%\" expands too deeply", m->m_name, m->m_nlen);
	m->m_active = true;
	expand(c, body.b_p != NULL ? body.b_p : "", body.b_len, out);
	m->m_active = false;
	c->c_nexpand--;
}

/* builtin: __FILE__ and __LINE__; false if the name is neither. */
static bool builtin(cpp *c, const char *s, size_t n, cpp_buf *out)
{
	if (word_is(s, n, "__LINE__")) {
		buf_num(c, out, c->c_file->cf_line);
		return true;
	}
	if (word_is(s, n, "__FILE__")) {
		buf_add(c, out, "\"", 1);
		buf_add(c, out, c->c_file->cf_name, cpp_strlen(c->c_file->cf_name));
		buf_add(c, out, "\"", 1);
		return true;
	}
	return false;
}

/* expand: s[0..n) with its macros expanded, into out. */
static void expand(cpp *c, const char *s, size_t n, cpp_buf *out)
{
	for (size_t i = 0; i < n;) {
		if (s[i] == '"' || s[i] == '\'') {
			size_t e = skip_literal(s, i, n);
			buf_add(c, out, s + i, e - i);
			i = e;
		} else if (is_digit(s[i]) || (s[i] == '.' && i + 1 < n && is_digit(s[i + 1]))) {
			size_t e = skip_ppnumber(s, i + 1, n);
			buf_add(c, out, s + i, e - i);
			i = e;
		} else if (is_idstart(s[i])) {
			size_t e = skip_ident(s, i, n), after = skip_blanks(s, e, n);
			cpp_macro *m = macro_find(c, s + i, e - i);
			if (m != NULL && !m->m_active && (m->m_nparams < 0 || (after < n && s[after] == '('))) {
				size_t at = m->m_nparams < 0 ? e : after;
				expand_macro(c, m, s, &at, n, out);
				i = at;
				continue;
			}
			if (!builtin(c, s + i, e - i, out))
				buf_add(c, out, s + i, e - i);
			i = e;
		} else {
			buf_add(c, out, s + i, 1);
			i++;
		}
	}
}

/* ---- #if expressions ---- */

typedef struct cpp_expr {
	cpp *x_c;
	const char *x_s;
	size_t x_n, x_i;
	int x_depth;                    /* open parentheses and unary operators */
} cpp_expr;

static int64_t expr_cond(cpp_expr *x);

static void expr_blank(cpp_expr *x)
{
	x->x_i = skip_blanks(x->x_s, x->x_i, x->x_n);
}

/* expr_op: is the operator op next (and not the start of a longer one)? Consumes it. */
static bool expr_op(cpp_expr *x, const char *op)
{
	size_t k = cpp_strlen(op);

	expr_blank(x);
	if (x->x_i + k > x->x_n || !name_eq(x->x_s + x->x_i, k, op, k))
		return false;
	char next = x->x_i + k < x->x_n ? x->x_s[x->x_i + k] : 0;
	if (k == 1 && (op[0] == '<' || op[0] == '>' || op[0] == '&' || op[0] == '|' ||
	    op[0] == '=' || op[0] == '!') && (next == op[0] || next == '='))
		return false;
	if (k == 2 && (op[0] == '<' || op[0] == '>') && op[1] == op[0] && next == '=')
		return false;
	x->x_i += k;
	return true;
}

static _Noreturn void expr_fail(cpp_expr *x, const char *msg)
{
	cpp_fail(x->x_c, "error", 0, msg, NULL, 0);
}

static int64_t expr_number(cpp_expr *x)
{
	const char *s = x->x_s;
	size_t i = x->x_i;
	uint64_t v = 0, base = 10;

	if (s[i] == '0' && i + 1 < x->x_n && (s[i + 1] | 32) == 'x') {
		base = 16;
		i += 2;
	} else if (s[i] == '0') {
		base = 8;
	}
	for (; i < x->x_n; i++) {
		int ch = s[i] | 32, d = is_digit(s[i]) ? s[i] - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : 99;
		if (d >= (int)base)
			break;
		v = v * base + (uint64_t)d;
	}
	while (i < x->x_n && ((s[i] | 32) == 'u' || (s[i] | 32) == 'l'))
		i++;
	if (i < x->x_n && is_idchar(s[i]))
		expr_fail(x, "invalid integer constant in #if");
	x->x_i = i;
	return (int64_t)v;
}

static int64_t expr_char(cpp_expr *x)
{
	const char *s = x->x_s;
	size_t i = x->x_i + 1;
	int64_t v = 0;

	if (i < x->x_n && s[i] == '\\' && i + 1 < x->x_n) {
		char e = s[++i];
		v = e == 'n' ? '\n' : e == 't' ? '\t' : e == '0' ? 0 : e == 'r' ? '\r' : e;
	} else if (i < x->x_n) {
		v = (unsigned char)s[i];
	}
	x->x_i = skip_literal(s, x->x_i, x->x_n);
	return v;
}

/* primary: number | char | identifier (0) | ( cond ) | unary-op primary */
static int64_t expr_primary(cpp_expr *x);

static int64_t expr_unary(cpp_expr *x)
{
	if (++x->x_depth > CPP_MAXPAREN)
		expr_fail(x, "#if expression nested too deeply");
	int64_t v = expr_primary(x);
	x->x_depth--;
	return v;
}

static int64_t expr_primary(cpp_expr *x)
{
	expr_blank(x);
	if (x->x_i >= x->x_n)
		expr_fail(x, "#if with no expression");
	char ch = x->x_s[x->x_i];
	if (expr_op(x, "!"))
		return !expr_unary(x);
	if (expr_op(x, "~"))
		return ~expr_unary(x);
	if (expr_op(x, "-"))
		return -expr_unary(x);
	if (expr_op(x, "+"))
		return expr_unary(x);
	if (expr_op(x, "(")) {
		int64_t v = expr_cond(x);
		if (!expr_op(x, ")"))
			expr_fail(x, "missing ')' in expression");
		return v;
	}
	if (is_digit(ch))
		return expr_number(x);
	if (ch == '\'')
		return expr_char(x);
	if (is_idstart(ch)) {                   /* a name that is no macro: 0 */
		x->x_i = skip_ident(x->x_s, x->x_i, x->x_n);
		return 0;
	}
	cpp_fail(x->x_c, "error", 0, "token \"%\" is not valid in preprocessor expressions",
	         x->x_s + x->x_i, 1);
}

/* Binary operators by precedence, lowest first (the ternary is expr_cond). */
static const char *const expr_levels[][5] = {
	{ "||" }, { "&&" }, { "|" }, { "^" }, { "&" }, { "==", "!=" },
	{ "<=", ">=", "<", ">" }, { "<<", ">>" }, { "+", "-" }, { "*", "/", "%" },
};

static int64_t expr_apply(cpp_expr *x, const char *op, int64_t a, int64_t b)
{
	switch (op[0]) {
	case '|': return op[1] ? (a || b) : (a | b);
	case '&': return op[1] ? (a && b) : (a & b);
	case '^': return a ^ b;
	case '=': return a == b;
	case '!': return a != b;
	case '<': return op[1] == '<' ? (int64_t)((uint64_t)a << (b & 63)) : op[1] ? a <= b : a < b;
	case '>': return op[1] == '>' ? a >> (b & 63) : op[1] ? a >= b : a > b;
	case '+': return (int64_t)((uint64_t)a + (uint64_t)b);
	case '-': return (int64_t)((uint64_t)a - (uint64_t)b);
	case '*': return (int64_t)((uint64_t)a * (uint64_t)b);
	default:
		if (b == 0)
			expr_fail(x, "division by zero in #if");
		if (a == INT64_MIN && b == -1)
			return op[0] == '/' ? a : 0;
		return op[0] == '/' ? a / b : a % b;
	}
}

static int64_t expr_binary(cpp_expr *x, int level)
{
	if (level == (int)(sizeof(expr_levels) / sizeof(expr_levels[0])))
		return expr_unary(x);
	int64_t v = expr_binary(x, level + 1);
	for (;;) {
		const char *op = NULL;
		for (int k = 0; k < 5 && expr_levels[level][k] != NULL && op == NULL; k++)
			if (expr_op(x, expr_levels[level][k]))
				op = expr_levels[level][k];
		if (op == NULL)
			return v;
		v = expr_apply(x, op, v, expr_binary(x, level + 1));
	}
}

static int64_t expr_cond(cpp_expr *x)
{
	int64_t v = expr_binary(x, 0);

	if (!expr_op(x, "?"))
		return v;
	int64_t a = expr_cond(x);
	if (!expr_op(x, ":"))
		expr_fail(x, "'?' without following ':'");
	int64_t b = expr_cond(x);
	return v ? a : b;
}

/* defined_replace: "defined X" and "defined(X)" become 1 or 0, before expansion. */
static void defined_replace(cpp *c, const char *s, size_t n, cpp_buf *out)
{
	for (size_t i = 0; i < n;) {
		size_t e = is_idstart(s[i]) ? skip_ident(s, i, n) : i + 1;
		if (!word_is(s + i, e - i, "defined")) {
			if (s[i] == '"' || s[i] == '\'')
				e = skip_literal(s, i, n);
			buf_add(c, out, s + i, e - i);
			i = e;
			continue;
		}
		size_t j = skip_blanks(s, e, n);
		bool paren = j < n && s[j] == '(';
		j = skip_blanks(s, j + paren, n);
		size_t k = skip_ident(s, j, n);
		if (k == j)
			cpp_fail(c, "error", 0, "operator \"defined\" requires an identifier", NULL, 0);
		bool def = macro_find(c, s + j, k - j) != NULL || word_is(s + j, k - j, "__FILE__") ||
		           word_is(s + j, k - j, "__LINE__");
		k = skip_blanks(s, k, n);
		if (paren && (k >= n || s[k] != ')'))
			cpp_fail(c, "error", 0, "missing ')' after \"defined\"", NULL, 0);
		buf_add(c, out, def ? " 1 " : " 0 ", 3);
		i = k + paren;
	}
}

static bool cond_eval(cpp *c, const char *s, size_t n)
{
	cpp_buf raw = { 0 }, full = { 0 };

	defined_replace(c, s, n, &raw);
	expand(c, raw.b_p ? raw.b_p : "", raw.b_len, &full);
	cpp_expr x = { c, full.b_p ? full.b_p : "", full.b_len, 0, 0 };
	int64_t v = expr_cond(&x);
	expr_blank(&x);
	if (x.x_i < x.x_n)
		cpp_fail(c, "error", 0, "missing binary operator before token \"%\"", x.x_s + x.x_i, 1);
	return v != 0;
}

/* ---- directives ---- */

static bool active(const cpp *c)
{
	return c->c_nconds == 0 || c->c_conds[c->c_nconds - 1].cc_active;
}

static void cond_push(cpp *c, bool value, const char *word, uint32_t col)
{
	if (c->c_nconds == CPP_MAXCOND)
		cpp_fail(c, "error", 0, "#if nested too deeply", NULL, 0);
	bool parent = active(c);
	c->c_conds[c->c_nconds++] = (cpp_cond){ .cc_parent = parent, .cc_taken = parent && value,
	                                        .cc_active = parent && value,
	                                        .cc_line = c->c_file->cf_line, .cc_col = col,
	                                        .cc_word = word };
}

/* cond_branch: #elif, #else or #endif (word is one of them). */
static void cond_branch(cpp *c, const char *word, const char *s, size_t n)
{
	bool elif = word[2] == 'i', endif = word[1] == 'n';

	if (c->c_nconds == 0)
		cpp_fail(c, "error", 0, elif ? "#elif without #if" : endif ? "#endif without #if" :
		         "#else without #if", NULL, 0);
	cpp_cond *cc = &c->c_conds[c->c_nconds - 1];
	if (endif) {
		c->c_nconds--;
		return;
	}
	if (cc->cc_else)
		cpp_fail(c, "error", 0, elif ? "#elif after #else" : "#else after #else", NULL, 0);
	if (elif) {                                 /* evaluated only if still wanted */
		bool v = cc->cc_parent && !cc->cc_taken && cond_eval(c, s, n);
		cc->cc_active = v;
		cc->cc_taken |= v;
	} else {                                    /* #else */
		cc->cc_else = true;
		cc->cc_active = cc->cc_parent && !cc->cc_taken;
		cc->cc_taken = true;
	}
}

static void process_file(cpp *c, const char *name, const char *src, size_t len);

/* include_find: the file of "#include <name>" (angle) or "name", tried in the search order. */
static bool include_find(cpp *c, const char *name, size_t n, bool angle, const char **path,
                         const char **data, size_t *len)
{
	const dt_cpp_opts *o = c->c_o;
	const char *cur = c->c_file->cf_name;
	size_t dirlen = cpp_strlen(cur);

	while (dirlen > 0 && cur[dirlen - 1] != '/')
		dirlen--;
	for (int k = angle ? 0 : -1; k < (int)o->co_ndirs; k++) {
		const char *dir = k < 0 ? cur : o->co_dirs[k];
		size_t dl = k < 0 ? dirlen : cpp_strlen(dir);
		cpp_buf p = { 0 };
		if (dl > 0) {
			buf_add(c, &p, dir, dl);
			if (dir[dl - 1] != '/')
				buf_add(c, &p, "/", 1);
		}
		buf_add(c, &p, name, n);
		if (o->co_open(o->co_arg, p.b_p, data, len)) {
			*path = p.b_p;
			return true;
		}
	}
	return false;
}

static void directive_include(cpp *c, const char *s, size_t n)
{
	cpp_buf exp = { 0 };
	size_t i = skip_blanks(s, 0, n);

	if (i < n && s[i] != '"' && s[i] != '<') {  /* #include MACRO */
		expand(c, s + i, n - i, &exp);
		s = exp.b_p ? exp.b_p : "";
		n = exp.b_len;
		i = skip_blanks(s, 0, n);
	}
	char close = i < n && s[i] == '<' ? '>' : '"';
	size_t start = i + 1, e = start;
	while (e < n && s[e] != close)
		e++;
	if (i >= n || (s[i] != '"' && s[i] != '<') || e >= n || e == start)
		cpp_fail(c, "error", 0, "#include expects \"FILENAME\" or <FILENAME>", NULL, 0);
	const char *path, *data;
	size_t len;
	if (!include_find(c, s + start, e - start, close == '>', &path, &data, &len))
		cpp_fail(c, "fatal error", exp.b_p ? 0 : c->c_restcol + (uint32_t)i,
		         "%: No such file or directory", s + start, e - start);
	if (c->c_depth == CPP_MAXDEPTH)
		cpp_fail(c, "error", 0, "#include nested too deeply", NULL, 0);
	if (c->c_o->co_included != NULL)
		c->c_o->co_included(c->c_o->co_arg, path, c->c_depth + 1);
	if (c->c_depth == 0)
		c->c_mark = c->c_mainline;
	c->c_depth++;
	process_file(c, path, data, len);
	c->c_depth--;
	if (c->c_depth == 0)
		c->c_remark = true;
}

/* directive_line: "#line N ["file"]": later lines count from N (for __LINE__ and messages). */
static void directive_line(cpp *c, const char *s, size_t n)
{
	cpp_buf exp = { 0 };

	expand(c, s, n, &exp);
	cpp_expr x = { c, exp.b_p ? exp.b_p : "", exp.b_len, 0, 0 };
	expr_blank(&x);
	if (x.x_i >= x.x_n || !is_digit(x.x_s[x.x_i]))
		cpp_fail(c, "error", 0, "#line directive requires a positive integer argument", NULL, 0);
	int64_t v = expr_number(&x);
	c->c_file->cf_nextline = (uint32_t)v;
}

static void directive_error(cpp *c, const char *word, size_t wlen, const char *s, size_t n,
                            uint32_t col)
{
	cpp_buf msg = { 0 };

	buf_add(c, &msg, "#", 1);
	buf_add(c, &msg, word, wlen);
	trim(&s, &n);
	if (n > 0) {
		buf_add(c, &msg, " ", 1);
		buf_add(c, &msg, s, n);
	}
	cpp_fail(c, "error", col, "%", msg.b_p, msg.b_len);
}

/*
 * directive: the line s (n bytes, after the '#') of the current file.
 * Returns true if the line goes to the output as it is (#pragma, #ident).
 */
static bool directive(cpp *c, const char *s, size_t n, uint32_t col)
{
	size_t i = skip_blanks(s, 0, n), e = skip_ident(s, i, n);
	const char *w = s + i, *rest = s + e;
	size_t wl = e - i, rn = n - e;
	char word[8] = "";

	cpp_copy(word, sizeof(word), w, wl);
	col += (uint32_t)i;
	c->c_restcol = col + (uint32_t)wl;
	if (word_is(w, wl, "if") || word_is(w, wl, "ifdef") || word_is(w, wl, "ifndef")) {
		bool v = false;
		if (active(c) && wl == 2) {
			v = cond_eval(c, rest, rn);
		} else if (active(c)) {
			size_t a = skip_blanks(rest, 0, rn), b = skip_ident(rest, a, rn);
			if (a == b)
				cpp_fail(c, "error", col, "no macro name given in #% directive", w, wl);
			v = (macro_find(c, rest + a, b - a) != NULL) == (wl == 5);
		}
		cond_push(c, v, wl == 2 ? "#if" : wl == 5 ? "#ifdef" : "#ifndef", col);
		return false;
	}
	if (word_is(w, wl, "elif") || word_is(w, wl, "else") || word_is(w, wl, "endif")) {
		cond_branch(c, word, rest, rn);
		return false;
	}
	if (!active(c) || wl == 0)
		return false;                           /* skipped, or the null directive "#" */
	if (word_is(w, wl, "define"))
		macro_define(c, rest, rn);
	else if (word_is(w, wl, "undef"))
		macro_undef(c, rest + skip_blanks(rest, 0, rn),
		            skip_ident(rest, skip_blanks(rest, 0, rn), rn) - skip_blanks(rest, 0, rn));
	else if (word_is(w, wl, "include"))
		directive_include(c, rest, rn);
	else if (word_is(w, wl, "line") || is_digit(w[0]))
		directive_line(c, wl == 4 ? rest : w, wl == 4 ? rn : n - i);
	else if (word_is(w, wl, "error"))
		directive_error(c, w, wl, rest, rn, col);
	else if (word_is(w, wl, "pragma") || word_is(w, wl, "ident"))
		return true;
	else if (word_is(w, wl, "warning"))
		return false;
	else
		cpp_fail(c, "error", col, "invalid preprocessing directive #%", w, wl);
	return false;
}

/* ---- files ---- */

/* emit_line: one output line (text without its newline), numbered for the compiler. */
static void emit_line(cpp *c, const char *s, size_t n)
{
	if (c->c_depth > 0 && n == 0)
		return;                                 /* an include's empty line: nothing to number */
	if (c->c_depth > 0 || c->c_remark) {
		cpp_buf m = { 0 };
		uint32_t base = c->c_o->co_line_base ? c->c_o->co_line_base : 1;
		buf_add(c, &m, "#line ", 6);
		buf_num(c, &m, base + (c->c_depth > 0 ? c->c_mark : c->c_mainline) - 1);
		buf_add(c, &m, "\n", 1);
		cpp_emit(c, m.b_p, m.b_len);
		c->c_remark = false;
	}
	cpp_emit(c, s, n);
	cpp_emit(c, "\n", 1);
}

/* process_line: one line of the current file, directive or text. */
static void process_line(cpp *c, const char *s, size_t n)
{
	size_t i = skip_blanks(s, 0, n);

	if (c->c_depth == 0 && c->c_file->cf_line == 1 && n >= 2 && s[0] == '#' && s[1] == '!') {
		emit_line(c, "", 0);                   /* "#!/usr/sbin/dtrace -Cs" */
		return;
	}
	if (i < n && s[i] == '#') {
		bool keep = directive(c, s + i + 1, n - i - 1, (uint32_t)i + 2);
		emit_line(c, keep ? s : "", keep ? n : 0);
		return;
	}
	if (!active(c)) {
		emit_line(c, "", 0);
		return;
	}
	cpp_buf out = { 0 };
	size_t mark = c->c_hi;
	expand(c, s, n, &out);
	emit_line(c, out.b_p ? out.b_p : "", out.b_len);
	c->c_hi = mark;                             /* the line's scratch is free again */
}

static void process_file(cpp *c, const char *name, const char *src, size_t len)
{
	cpp_file f = { .cf_name = name, .cf_nextline = 1 }, *outer = c->c_file;
	uint32_t bad = 0;
	int nconds = c->c_nconds;

	c->c_file = &f;
	f.cf_text = clean(c, src, len, &f.cf_len, &bad);
	if (f.cf_text == NULL) {
		f.cf_line = bad;
		cpp_fail(c, "error", 0, "unterminated comment", NULL, 0);
	}
	while (f.cf_pos < f.cf_len) {
		size_t e = f.cf_pos;
		while (e < f.cf_len && f.cf_text[e] != '\n')
			e++;
		f.cf_line = f.cf_nextline++;
		if (c->c_depth == 0)
			c->c_mainline++;
		process_line(c, f.cf_text + f.cf_pos, e - f.cf_pos);
		f.cf_pos = e + 1;
	}
	if (c->c_nconds > nconds) {
		const cpp_cond *cc = &c->c_conds[c->c_nconds - 1];
		f.cf_line = cc->cc_line;
		cpp_fail(c, "error", cc->cc_col, "unterminated %", cc->cc_word, cpp_strlen(cc->cc_word));
	}
	c->c_file = outer;
}

/* ---- entry point ---- */

static void predefine(cpp *c)
{
	static const char *const defs[] = {
		"D__SUNW_D=1", "D__SUNW_D_64=1", "D__SUNW_D_VERSION=0x01006002", "D__sonde__=1",
	};
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		macro_cmdline(c, defs[i]);
	for (uint32_t i = 0; i < c->c_o->co_ndefs; i++)
		macro_cmdline(c, c->c_o->co_defs[i]);
}

int dt_cpp(const char *src, size_t len, const char *file, const dt_cpp_opts *o, void *arena,
           size_t size, char **out, size_t *outlen, dt_cpp_error *err)
{
	cpp c = { .c_o = o, .c_mem = arena, .c_size = size, .c_hi = size & ~(size_t)7,
	          .c_err = err, .c_remark = true };
	cpp_file cmdline = { .cf_name = "<command line>", .cf_line = 1 };

	err->ce_msg[0] = 0;
	c.c_file = &cmdline;
	if (__builtin_setjmp(c.c_jmp) != 0)
		return c.c_rc;
	predefine(&c);
	process_file(&c, file, src, len);
	cpp_emit(&c, "", 0);
	c.c_mem[c.c_lo] = 0;
	*out = c.c_mem;
	*outlen = c.c_lo;
	return DT_CPP_OK;
}
