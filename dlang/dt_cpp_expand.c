/*
 * dt_cpp_expand.c - the preprocessor's macros, their expansion, and #if's
 * integer constant expressions (dt_cpp.c has the theory: what is expanded
 * and how; dt_cpp_impl.h the shared state).  Context: any; freestanding.
 *
 * Order: the macro table, expansion (arguments, # and ##, rescanning),
 * expressions (a precedence-climbing parser over the expanded text).
 *
 * Tests: tests/unit/dlang_cpp_test.c; tests/d/cpp
 */
#include "dlang/dt_cpp_impl.h"

/* ---- macros ---- */

static unsigned macro_hash(const char *s, size_t n)
{
	unsigned h = 5381;

	for (size_t i = 0; i < n; i++)
		h = h * 33 + (unsigned char)s[i];
	return h % CPP_HASH;
}

cpp_macro *dt_cpp_macro_find(cpp *c, const char *s, size_t n)
{
	for (cpp_macro *m = c->c_macros[macro_hash(s, n)]; m != NULL; m = m->m_next)
		if (name_eq(m->m_name, m->m_nlen, s, n))
			return m;
	return NULL;
}

void dt_cpp_macro_undef(cpp *c, const char *s, size_t n)
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
	cpp_macro *m = dt_cpp_alloc(c, sizeof(*m));
	char *copy = dt_cpp_alloc(c, n + 1);

	dt_cpp_copy(copy, n + 1, name, n);
	*m = (cpp_macro){ .m_name = copy, .m_nlen = n, .m_body = "", .m_nparams = -1 };
	dt_cpp_macro_undef(c, name, n);                 /* a redefinition replaces it */
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
			dt_cpp_fail(c, "error", 0, "missing ')' in macro parameter list", NULL, 0);
		}
		i = skip_ident(s, i, n);
		if (i == start || m->m_nparams == CPP_MAXARGS)
			dt_cpp_fail(c, "error", 0, "expected parameter name, found \"%\"", s + start,
			         start < n ? 1 : 0);
		m->m_params[m->m_nparams] = s + start;
		m->m_plens[m->m_nparams++] = i - start;
		i = skip_blanks(s, i, n);
		if (i < n && s[i] == ')')
			return i + 1;
		if (i >= n || s[i] != ',')
			dt_cpp_fail(c, "error", 0, "expected ',' or ')', found \"%\"", s + i, i < n ? 1 : 0);
		i = skip_blanks(s, i + 1, n);
	}
}

/* dt_cpp_macro_define: the text of "#define" after the word: NAME[(params)] body. */
void dt_cpp_macro_define(cpp *c, const char *s, size_t n)
{
	size_t i = skip_blanks(s, 0, n), start = i;

	if (i < n && is_idstart(s[i]))
		i = skip_ident(s, i, n);
	if (i == start)
		dt_cpp_fail(c, "error", 0, i < n ? "macro names must be identifiers" :
		         "no macro name given in #define directive", NULL, 0);
	cpp_macro *m = macro_new(c, s + start, i - start);
	if (i < n && s[i] == '(')
		i = macro_params(c, m, s, i, n);
	i = skip_blanks(s, i, n);
	while (n > i && is_blank(s[n - 1]))
		n--;
	char *body = dt_cpp_alloc(c, n - i + 1);
	size_t bl = 0;
	for (size_t k = i; k < n;) {                 /* blanks between tokens: one space */
		if (s[k] == '"' || s[k] == '\'') {
			size_t e = dt_cpp_skip_literal(s, k, n);
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
		char *p = dt_cpp_alloc(c, m->m_plens[k] + 1);
		dt_cpp_copy(p, m->m_plens[k] + 1, m->m_params[k], m->m_plens[k]);
		m->m_params[k] = p;
	}
}

/* dt_cpp_macro_cmdline: -D name[=value] ("Dname=value": value, or 1) and -U name ("Uname"). */
void dt_cpp_macro_cmdline(cpp *c, const char *def)
{
	const char *s = def + 1;
	size_t n = cpp_strlen(s), eq = 0;

	if (def[0] == 'U') {
		dt_cpp_macro_undef(c, s, n);
		return;
	}
	while (eq < n && s[eq] != '=')
		eq++;
	cpp_buf b = { 0 };
	dt_cpp_buf_add(c, &b, s, eq);
	dt_cpp_buf_add(c, &b, " ", 1);
	if (eq < n)
		dt_cpp_buf_add(c, &b, s + eq + 1, n - eq - 1);
	else
		dt_cpp_buf_add(c, &b, "1", 1);
	dt_cpp_macro_define(c, b.b_p, b.b_len);
}

/* ---- expansion ---- */


/* macro_args: the arguments of an invocation, s[i] == '('; the index after ')'. */
static size_t macro_args(cpp *c, const cpp_macro *m, const char *s, size_t i, size_t n,
                         const char **args, size_t *lens, int *nargs)
{
	int depth = 0, k = 0;
	size_t start = ++i;

	for (; i < n; i++) {
		char ch = s[i];
		if (ch == '"' || ch == '\'') {
			i = dt_cpp_skip_literal(s, i, n) - 1;
		} else if (ch == '(') {
			depth++;
		} else if ((ch == ',' && depth == 0 && !(m->m_variadic && k == m->m_nparams - 1)) ||
		           (ch == ')' && depth == 0)) {
			if (k == CPP_MAXARGS)
				dt_cpp_fail(c, "error", 0, "macro \"%\" passed too many arguments",
				         m->m_name, m->m_nlen);
			args[k] = s + start;
			lens[k] = i - start;
			dt_cpp_trim(&args[k], &lens[k]);
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
	dt_cpp_fail(c, "error", 0, "unterminated argument list invoking macro \"%\"", m->m_name, m->m_nlen);
}


/* stringify: # arg: the argument's text in quotes, " and \ of literals escaped. */
static void stringify(cpp *c, cpp_buf *out, const char *a, size_t n)
{
	bool in_lit = false;
	char q = 0;

	dt_cpp_trim(&a, &n);
	dt_cpp_buf_add(c, out, "\"", 1);
	for (size_t i = 0; i < n; i++) {
		if (!in_lit && (a[i] == '"' || a[i] == '\'')) {
			in_lit = true;
			q = a[i];
		} else if (in_lit && a[i] == q && a[i - 1] != '\\') {
			in_lit = false;
		}
		if ((a[i] == '"' || a[i] == '\\') && (in_lit || a[i] == '"'))
			dt_cpp_buf_add(c, out, "\\", 1);
		dt_cpp_buf_add(c, out, a + i, 1);
	}
	dt_cpp_buf_add(c, out, "\"", 1);
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
				dt_cpp_trim(&a, &an);
				dt_cpp_buf_add(c, out, a, an);
			} else if (k >= 0) {
				dt_cpp_expand(c, args[k], lens[k], out);
			} else {
				dt_cpp_buf_add(c, out, s + i, e - i);
			}
			i = e;
		} else if (s[i] == '"' || s[i] == '\'') {
			size_t e = dt_cpp_skip_literal(s, i, n);
			dt_cpp_buf_add(c, out, s + i, e - i);
			i = e;
		} else {
			dt_cpp_buf_add(c, out, s + i, 1);
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
			dt_cpp_trim(&a, &an);
			nargs = an == 0 ? 0 : 1;
		}
		if (m->m_variadic && nargs == m->m_nparams - 1) {
			args[nargs] = "";
			lens[nargs++] = 0;
		}
		if (nargs != m->m_nparams)
			dt_cpp_fail(c, "error", 0, nargs < m->m_nparams ?
			         "macro \"%\" requires more arguments than given" :
			         "macro \"%\" passed more arguments than it takes", m->m_name, m->m_nlen);
	}
	substitute(c, m, args, lens, &body);
	if (++c->c_nexpand > CPP_MAXEXPAND)
		dt_cpp_fail(c, "error", 0, "macro \"%\" expands too deeply (the limit is " CPP_STR(CPP_MAXEXPAND) " levels)", m->m_name, m->m_nlen);
	m->m_active = true;
	dt_cpp_expand(c, body.b_p != NULL ? body.b_p : "", body.b_len, out);
	m->m_active = false;
	c->c_nexpand--;
}

/* builtin: __FILE__ and __LINE__; false if the name is neither. */
static bool builtin(cpp *c, const char *s, size_t n, cpp_buf *out)
{
	if (word_is(s, n, "__LINE__")) {
		dt_cpp_buf_num(c, out, c->c_file->cf_line);
		return true;
	}
	if (word_is(s, n, "__FILE__")) {
		dt_cpp_buf_add(c, out, "\"", 1);
		dt_cpp_buf_add(c, out, c->c_file->cf_name, cpp_strlen(c->c_file->cf_name));
		dt_cpp_buf_add(c, out, "\"", 1);
		return true;
	}
	return false;
}

/* dt_cpp_expand: s[0..n) with its macros expanded, into out. */
void dt_cpp_expand(cpp *c, const char *s, size_t n, cpp_buf *out)
{
	for (size_t i = 0; i < n;) {
		if (s[i] == '"' || s[i] == '\'') {
			size_t e = dt_cpp_skip_literal(s, i, n);
			dt_cpp_buf_add(c, out, s + i, e - i);
			i = e;
		} else if (is_digit(s[i]) || (s[i] == '.' && i + 1 < n && is_digit(s[i + 1]))) {
			size_t e = dt_cpp_skip_ppnumber(s, i + 1, n);
			dt_cpp_buf_add(c, out, s + i, e - i);
			i = e;
		} else if (is_idstart(s[i])) {
			size_t e = skip_ident(s, i, n), after = skip_blanks(s, e, n);
			cpp_macro *m = dt_cpp_macro_find(c, s + i, e - i);
			if (m != NULL && !m->m_active && (m->m_nparams < 0 || (after < n && s[after] == '('))) {
				size_t at = m->m_nparams < 0 ? e : after;
				expand_macro(c, m, s, &at, n, out);
				i = at;
				continue;
			}
			if (!builtin(c, s + i, e - i, out))
				dt_cpp_buf_add(c, out, s + i, e - i);
			i = e;
		} else {
			dt_cpp_buf_add(c, out, s + i, 1);
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
	dt_cpp_fail(x->x_c, "error", 0, msg, NULL, 0);
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
	x->x_i = dt_cpp_skip_literal(s, x->x_i, x->x_n);
	return v;
}

/* primary: number | char | identifier (0) | ( cond ) | unary-op primary */
static int64_t expr_primary(cpp_expr *x);

static int64_t expr_unary(cpp_expr *x)
{
	if (++x->x_depth > CPP_MAXPAREN)
		expr_fail(x, "#if expression nested too deeply (the limit is " CPP_STR(CPP_MAXPAREN) " levels)");
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
	dt_cpp_fail(x->x_c, "error", 0, "token \"%\" is not valid in preprocessor expressions",
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
				e = dt_cpp_skip_literal(s, i, n);
			dt_cpp_buf_add(c, out, s + i, e - i);
			i = e;
			continue;
		}
		size_t j = skip_blanks(s, e, n);
		bool paren = j < n && s[j] == '(';
		j = skip_blanks(s, j + paren, n);
		size_t k = skip_ident(s, j, n);
		if (k == j)
			dt_cpp_fail(c, "error", 0, "operator \"defined\" requires an identifier", NULL, 0);
		bool def = dt_cpp_macro_find(c, s + j, k - j) != NULL || word_is(s + j, k - j, "__FILE__") ||
		           word_is(s + j, k - j, "__LINE__");
		k = skip_blanks(s, k, n);
		if (paren && (k >= n || s[k] != ')'))
			dt_cpp_fail(c, "error", 0, "missing ')' after \"defined\"", NULL, 0);
		dt_cpp_buf_add(c, out, def ? " 1 " : " 0 ", 3);
		i = k + paren;
	}
}

bool dt_cpp_cond_eval(cpp *c, const char *s, size_t n)
{
	cpp_buf raw = { 0 }, full = { 0 };

	defined_replace(c, s, n, &raw);
	dt_cpp_expand(c, raw.b_p ? raw.b_p : "", raw.b_len, &full);
	cpp_expr x = { c, full.b_p ? full.b_p : "", full.b_len, 0, 0 };
	int64_t v = expr_cond(&x);
	expr_blank(&x);
	if (x.x_i < x.x_n)
		dt_cpp_fail(c, "error", 0, "missing binary operator before token \"%\"", x.x_s + x.x_i, 1);
	return v != 0;
}

/* dt_cpp_line_number: #line's argument, macros expanded: a positive number. */
uint32_t dt_cpp_line_number(cpp *c, const char *s, size_t n)
{
	cpp_buf exp = { 0 };

	dt_cpp_expand(c, s, n, &exp);
	cpp_expr x = { c, exp.b_p ? exp.b_p : "", exp.b_len, 0, 0 };
	expr_blank(&x);
	if (x.x_i >= x.x_n || !is_digit(x.x_s[x.x_i]))
		dt_cpp_fail(c, "error", 0, "#line directive requires a positive integer argument", NULL, 0);
	return (uint32_t)expr_number(&x);
}
