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
 * Order: memory and errors, strings, cleaning, directives, files, the
 * entry point; macros, expansion and #if expressions are in
 * dt_cpp_expand.c, the state both share in dt_cpp_impl.h.
 *
 * Tests: tests/unit/dlang_cpp_test.c; tests/d/cpp
 */
#include "dlang/dt.h"                /* DT_VERSION_LATEST */
#include "dlang/dt_cpp_impl.h"

/* ---- memory and errors ---- */

static _Noreturn void cpp_nomem(cpp *c)
{
	c->c_rc = DT_CPP_NOMEM;
	__builtin_longjmp(c->c_jmp, 1);
}

void *dt_cpp_alloc(cpp *c, size_t n)
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


void dt_cpp_copy(char *to, size_t size, const char *s, size_t n)
{
	size_t k = n < size - 1 ? n : size - 1;

	for (size_t i = 0; i < k; i++)
		to[i] = s[i];
	to[k] = 0;
}

/* dt_cpp_fail: the error at the current line of the current file; col 0 means 1. */
_Noreturn void dt_cpp_fail(cpp *c, const char *kind, uint32_t col, const char *msg,
                               const char *arg, size_t arglen)
{
	dt_cpp_error *e = c->c_err;
	size_t n = 0;

	dt_cpp_copy(e->ce_file, sizeof(e->ce_file), c->c_file->cf_name, cpp_strlen(c->c_file->cf_name));
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




void dt_cpp_buf_add(cpp *c, cpp_buf *b, const char *s, size_t n)
{
	if (b->b_len + n + 1 > b->b_cap) {
		size_t cap = (b->b_cap ? b->b_cap * 2 : 256) + n;
		char *p = dt_cpp_alloc(c, cap);
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

void dt_cpp_buf_num(cpp *c, cpp_buf *b, uint64_t v)
{
	char d[24];
	int n = 0;

	do
		d[sizeof(d) - 1 - n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	dt_cpp_buf_add(c, b, d + sizeof(d) - n, (size_t)n);
}

/* dt_cpp_skip_literal: s[i] opens a string or character constant: the index after it (or n). */
size_t dt_cpp_skip_literal(const char *s, size_t i, size_t n)
{
	char q = s[i++];

	while (i < n && s[i] != q && s[i] != '\n') {
		if (s[i] == '\\' && i + 1 < n)
			i++;
		i++;
	}
	return i < n && s[i] == q ? i + 1 : i;
}

/* dt_cpp_skip_ppnumber: a pp-number from s[i] (a digit, or . digit). */
size_t dt_cpp_skip_ppnumber(const char *s, size_t i, size_t n)
{
	while (i < n && (is_idchar(s[i]) || s[i] == '.' ||
	       ((s[i] == '+' || s[i] == '-') && (s[i - 1] | 32) == 'e')))
		i++;
	return i;
}

void dt_cpp_trim(const char **s, size_t *n)
{
	while (*n > 0 && is_blank(**s))
		(*s)++, (*n)--;
	while (*n > 0 && is_blank((*s)[*n - 1]))
		(*n)--;
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
	dt_cpp_buf_add(c, b, " ", 1);
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

	dt_cpp_buf_add(c, &b, "", 0);
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
			size_t j = dt_cpp_skip_literal(s, i, n);
			dt_cpp_buf_add(c, &b, s + i, j - i);
			i = j;
		} else if (s[i] == '\n') {
			for (; pending > 0; pending--)
				dt_cpp_buf_add(c, &b, "\n", 1);
			dt_cpp_buf_add(c, &b, "\n", 1);
			line++;
			i++;
		} else {
			dt_cpp_buf_add(c, &b, s + i, 1);
			i++;
		}
	}
	for (; pending > 0; pending--)
		dt_cpp_buf_add(c, &b, "\n", 1);
	*outlen = b.b_len;
	return b.b_p;
}

/* ---- directives ---- */

static bool active(const cpp *c)
{
	return c->c_nconds == 0 || c->c_conds[c->c_nconds - 1].cc_active;
}

static void cond_push(cpp *c, bool value, const char *word, uint32_t col)
{
	if (c->c_nconds == CPP_MAXCOND)
		dt_cpp_fail(c, "error", 0, "#if nested too deeply (the limit is " CPP_STR(CPP_MAXCOND) " levels)", NULL, 0);
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
		dt_cpp_fail(c, "error", 0, elif ? "#elif without #if" : endif ? "#endif without #if" :
		         "#else without #if", NULL, 0);
	cpp_cond *cc = &c->c_conds[c->c_nconds - 1];
	if (endif) {
		c->c_nconds--;
		return;
	}
	if (cc->cc_else)
		dt_cpp_fail(c, "error", 0, elif ? "#elif after #else" : "#else after #else", NULL, 0);
	if (elif) {                                 /* evaluated only if still wanted */
		bool v = cc->cc_parent && !cc->cc_taken && dt_cpp_cond_eval(c, s, n);
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
			dt_cpp_buf_add(c, &p, dir, dl);
			if (dir[dl - 1] != '/')
				dt_cpp_buf_add(c, &p, "/", 1);
		}
		dt_cpp_buf_add(c, &p, name, n);
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
		dt_cpp_expand(c, s + i, n - i, &exp);
		s = exp.b_p ? exp.b_p : "";
		n = exp.b_len;
		i = skip_blanks(s, 0, n);
	}
	char close = i < n && s[i] == '<' ? '>' : '"';
	size_t start = i + 1, e = start;
	while (e < n && s[e] != close)
		e++;
	if (i >= n || (s[i] != '"' && s[i] != '<') || e >= n || e == start)
		dt_cpp_fail(c, "error", 0, "#include expects \"FILENAME\" or <FILENAME>", NULL, 0);
	const char *path, *data;
	size_t len;
	if (!include_find(c, s + start, e - start, close == '>', &path, &data, &len))
		dt_cpp_fail(c, "fatal error", exp.b_p ? 0 : c->c_restcol + (uint32_t)i,
		         "%: No such file or directory", s + start, e - start);
	if (c->c_depth == CPP_MAXDEPTH)
		dt_cpp_fail(c, "error", 0, "#include nested too deeply (the limit is " CPP_STR(CPP_MAXDEPTH) " levels)", NULL, 0);
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
	c->c_file->cf_nextline = dt_cpp_line_number(c, s, n);
}

static void directive_error(cpp *c, const char *word, size_t wlen, const char *s, size_t n,
                            uint32_t col)
{
	cpp_buf msg = { 0 };

	dt_cpp_buf_add(c, &msg, "#", 1);
	dt_cpp_buf_add(c, &msg, word, wlen);
	dt_cpp_trim(&s, &n);
	if (n > 0) {
		dt_cpp_buf_add(c, &msg, " ", 1);
		dt_cpp_buf_add(c, &msg, s, n);
	}
	dt_cpp_fail(c, "error", col, "%", msg.b_p, msg.b_len);
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

	dt_cpp_copy(word, sizeof(word), w, wl);
	col += (uint32_t)i;
	c->c_restcol = col + (uint32_t)wl;
	if (word_is(w, wl, "if") || word_is(w, wl, "ifdef") || word_is(w, wl, "ifndef")) {
		bool v = false;
		if (active(c) && wl == 2) {
			v = dt_cpp_cond_eval(c, rest, rn);
		} else if (active(c)) {
			size_t a = skip_blanks(rest, 0, rn), b = skip_ident(rest, a, rn);
			if (a == b)
				dt_cpp_fail(c, "error", col, "no macro name given in #% directive", w, wl);
			v = (dt_cpp_macro_find(c, rest + a, b - a) != NULL) == (wl == 5);
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
		dt_cpp_macro_define(c, rest, rn);
	else if (word_is(w, wl, "undef"))
		dt_cpp_macro_undef(c, rest + skip_blanks(rest, 0, rn),
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
		dt_cpp_fail(c, "error", col, "invalid preprocessing directive #%", w, wl);
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
		dt_cpp_buf_add(c, &m, "#line ", 6);
		dt_cpp_buf_num(c, &m, base + (c->c_depth > 0 ? c->c_mark : c->c_mainline) - 1);
		dt_cpp_buf_add(c, &m, "\n", 1);
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
	dt_cpp_expand(c, s, n, &out);
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
		dt_cpp_fail(c, "error", 0, "unterminated comment", NULL, 0);
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
		dt_cpp_fail(c, "error", cc->cc_col, "unterminated %", cc->cc_word, cpp_strlen(cc->cc_word));
	}
	c->c_file = outer;
}

/* ---- entry point ---- */

static void predefine(cpp *c)
{
	static const char *const defs[] = {
		"D__SUNW_D=1", "D__SUNW_D_64=1", "D__sonde__=1",
	};
	char vers[] = "D__SUNW_D_VERSION=0x00000000";
	uint32_t v = c->c_o->co_version != 0 ? c->c_o->co_version : DT_VERSION_LATEST;

	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		dt_cpp_macro_cmdline(c, defs[i]);
	/* as DTrace: the version the program is bound to (-x version=), in hex */
	for (int i = 0; i < 8; i++)
		vers[sizeof(vers) - 2 - i] = "0123456789abcdef"[(v >> (4 * i)) & 0xf];
	dt_cpp_macro_cmdline(c, vers);
	for (uint32_t i = 0; i < c->c_o->co_ndefs; i++)
		dt_cpp_macro_cmdline(c, c->c_o->co_defs[i]);
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
