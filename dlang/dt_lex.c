/*
 * dlang/dt_lex.c: the D lexer.
 *
 * Turns the source bytes into tokens, one at a time, on the parser's
 * demand (dt_lex_next).  D has two lexical worlds:
 *
 *   - ordinary C-like tokens inside predicates, clause bodies and
 *     declarations;
 *   - probe descriptions at the start of a program item (DT_LEX_TOP) or
 *     after a comma in a probe list (DT_LEX_PDESC): "fbt::foo*:entry",
 *     "tick-1s", "BEGIN".  At top level a word that is a keyword or a
 *     typedef name starts a declaration (so does one scoped to a module,
 *     D`int or kernel`uint64_t: one type name space, the scope dropped);
 *     any other word is a probe description.
 *
 * The lexer also expands macro arguments ($1, $$1, $target, $pid) and
 * handles "#pragma" and "#line" control lines, which DTrace reads without
 * a preprocessor.  Its errors are DTrace's lexer's, in its words: a
 * constant is read as DTrace's pattern reads it (digits or 0x and hex
 * digits, then u, l, l: "12abc" is 12 then abc), and the parentheses and
 * brackets are counted ("extra ) in input stream", "closing ) expected in
 * predicate before /").
 *
 * Invariants: every read is bounds-checked against c_len (the source is
 * not NUL-terminated); lines and columns count from 1; errors unwind via
 * dt_error_*.  Order: character helpers, comments and control lines,
 * numbers, characters and strings, words, punctuators, the entry point.
 *
 * Tests: tests/d/err.D_SYNTAX.*.d, err.D_INT_*.d, err.D_CHR_*.d,
 *        err.D_STR_*.d; make dlang-fuzz
 */
#include "dlang/dt.h"

/* Keywords, in the order of dt_tokkind from DT_T_KW_FIRST. */
static const char *const dt_keywords[] = {
	"auto", "break", "case", "char", "const", "continue", "counter",
	"default", "do", "double", "else", "enum", "extern", "float", "for",
	"goto", "if", "import", "inline", "int", "long", "offsetof", "probe",
	"provider", "register", "restrict", "return", "self", "short",
	"signed", "sizeof", "static", "string", "stringof", "struct",
	"switch", "this", "translator", "typedef", "union", "unsigned",
	"userland", "void", "volatile", "while", "xlate",
};

/* Punctuators, longest first within a shared prefix. */
static const struct { const char *p; dt_tokkind k; } dt_puncts[] = {
	{ "<<=", DT_T_LSH_EQ }, { ">>=", DT_T_RSH_EQ }, { "...", DT_T_ELLIPSIS },
	{ "->", DT_T_ARROW }, { "++", DT_T_INC }, { "--", DT_T_DEC },
	{ "<<", DT_T_LSH }, { ">>", DT_T_RSH }, { "<=", DT_T_LE },
	{ ">=", DT_T_GE }, { "==", DT_T_EQ }, { "!=", DT_T_NE },
	{ "&&", DT_T_LAND }, { "||", DT_T_LOR }, { "^^", DT_T_LXOR },
	{ "+=", DT_T_ADD_EQ }, { "-=", DT_T_SUB_EQ }, { "*=", DT_T_MUL_EQ },
	{ "/=", DT_T_DIV_EQ }, { "%=", DT_T_MOD_EQ }, { "&=", DT_T_AND_EQ },
	{ "|=", DT_T_OR_EQ }, { "^=", DT_T_XOR_EQ },
	{ "+", DT_T_PLUS }, { "-", DT_T_MINUS }, { "*", DT_T_STAR },
	{ "/", DT_T_SLASH }, { "%", DT_T_MOD }, { "&", DT_T_BAND },
	{ "|", DT_T_BOR }, { "^", DT_T_XOR }, { "~", DT_T_BNEG },
	{ "!", DT_T_LNEG }, { "<", DT_T_LT }, { ">", DT_T_GT },
	{ "?", DT_T_QUESTION }, { ":", DT_T_COLON }, { "=", DT_T_ASGN },
	{ ".", DT_T_DOT }, { ",", DT_T_COMMA }, { ";", DT_T_SEMI },
	{ "(", DT_T_LPAR }, { ")", DT_T_RPAR }, { "[", DT_T_LBRAC },
	{ "]", DT_T_RBRAC }, { "{", DT_T_LBRACE }, { "}", DT_T_RBRACE },
};

#define NPUNCT (sizeof(dt_puncts) / sizeof(dt_puncts[0]))
#define NKW (sizeof(dt_keywords) / sizeof(dt_keywords[0]))

const char *dt_tok_name(dt_tokkind k)
{
	if (k >= DT_T_KW_FIRST && k <= DT_T_KW_LAST)
		return dt_keywords[k - DT_T_KW_FIRST];
	for (size_t i = 0; i < NPUNCT; i++)
		if (dt_puncts[i].k == k)
			return dt_puncts[i].p;
	return "?";
}

/* The binary operator a compound assignment abbreviates: += is +. */
dt_tokkind dt_tok_compound_op(dt_tokkind k)
{
	static const dt_tokkind map[][2] = {
		{ DT_T_ADD_EQ, DT_T_PLUS }, { DT_T_SUB_EQ, DT_T_MINUS },
		{ DT_T_MUL_EQ, DT_T_STAR }, { DT_T_DIV_EQ, DT_T_SLASH },
		{ DT_T_MOD_EQ, DT_T_MOD }, { DT_T_AND_EQ, DT_T_BAND },
		{ DT_T_OR_EQ, DT_T_BOR }, { DT_T_XOR_EQ, DT_T_XOR },
		{ DT_T_LSH_EQ, DT_T_LSH }, { DT_T_RSH_EQ, DT_T_RSH },
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i][0] == k)
			return map[i][1];
	return k;		/* not a compound assignment */
}

/* ---- characters ---- */

static int peekc(dt_ctx *ctx, size_t ahead)
{
	size_t p = ctx->c_pos + ahead;
	return p < ctx->c_len ? (unsigned char)ctx->c_src[p] : -1;
}

static int getc_(dt_ctx *ctx)
{
	int c = peekc(ctx, 0);
	if (c < 0)
		return c;
	ctx->c_pos++;
	if (c == '\n') {
		ctx->c_line++;
		ctx->c_col = 1;
	} else {
		ctx->c_col++;
	}
	return c;
}

static bool is_alpha(int c) { return ((c | 32) >= 'a' && (c | 32) <= 'z') || c == '_'; }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_alnum(int c) { return is_alpha(c) || is_digit(c); }
static bool is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

static _Noreturn void lex_error(dt_ctx *ctx, const char *tag, const char *fmt, const char *arg)
{
	dt_error_at(ctx, ctx->c_line, ctx->c_col, tag, fmt, arg);
}

/* ---- comments and control lines ---- */

/* Are we at the first non-blank character of a line? */
static bool at_line_start(dt_ctx *ctx)
{
	size_t p = ctx->c_pos;
	while (p > 0) {
		char c = ctx->c_src[p - 1];
		if (c == '\n')
			return true;
		if (c != ' ' && c != '\t')
			return false;
		p--;
	}
	return true;
}

/* Copy the rest of the line into buf (NUL-terminated, truncated). */
static void read_line(dt_ctx *ctx, char *buf, size_t len)
{
	size_t n = 0;
	while (peekc(ctx, 0) >= 0 && peekc(ctx, 0) != '\n') {
		int c = getc_(ctx);
		if (n + 1 < len)
			buf[n++] = (char)c;
	}
	buf[n] = '\0';
}


static void control_line(dt_ctx *ctx)
{
	char buf[512];
	uint32_t line = ctx->c_line;
	getc_(ctx);	/* '#' */
	read_line(ctx, buf, sizeof(buf));
	dt_pragma(ctx, buf, line);
}

static void skip_space(dt_ctx *ctx)
{
	for (;;) {
		int c = peekc(ctx, 0);
		if (is_space(c)) {
			getc_(ctx);
		} else if (c == '/' && peekc(ctx, 1) == '*') {
			uint32_t l = ctx->c_line, col = ctx->c_col;
			getc_(ctx);
			getc_(ctx);
			while (!(peekc(ctx, 0) == '*' && peekc(ctx, 1) == '/')) {
				if (peekc(ctx, 0) == '/' && peekc(ctx, 1) == '*')
					dt_error_at(ctx, ctx->c_line, ctx->c_col,
					    "D_SYNTAX", "/* encountered inside a "
					    "comment");
				if (getc_(ctx) < 0)
					dt_error_at(ctx, l, col, "D_SYNTAX",
					    "end-of-file encountered before "
					    "matching */");
			}
			getc_(ctx);
			getc_(ctx);
		} else if (c == '/' && peekc(ctx, 1) == '/') {
			while (peekc(ctx, 0) >= 0 && peekc(ctx, 0) != '\n')
				getc_(ctx);
		} else if (c == '#' && at_line_start(ctx)) {
			control_line(ctx);
		} else {
			return;
		}
	}
}

/* ---- numbers ---- */

static int digit_val(int c)
{
	if (is_digit(c))
		return c - '0';
	if ((c | 32) >= 'a' && (c | 32) <= 'f')
		return (c | 32) - 'a' + 10;
	return 99;
}

/* The text of the token t so far (DTrace's messages quote the constant). */
static void tok_text(const dt_ctx *ctx, const dt_tok *t, char *buf, size_t len)
{
	size_t n = ctx->c_pos - t->t_off;
	n = n < len - 1 ? n : len - 1;
	__builtin_memcpy(buf, ctx->c_src + t->t_off, n);
	buf[n] = '\0';
}

/*
 * An integer constant is DTrace's: decimal digits, or 0x and hex digits,
 * then at most u, l, l in that order; what follows is the next token
 * ("12abc" is 12 then abc, "0x" is 0 then x).  The digits are read as C
 * reads them (a leading 0 is octal): first an overflow (D_INT_OFLOW), then
 * a digit beyond the base (D_INT_DIGIT), each naming the constant.
 */
static void lex_number(dt_ctx *ctx, dt_tok *t)
{
	unsigned base = peekc(ctx, 0) == '0' ? 8 : 10;
	uint64_t v = 0;
	bool oflow = false, stopped = false;
	int bad = 0;
	if (peekc(ctx, 0) == '0' && (peekc(ctx, 1) | 32) == 'x' &&
	    digit_val(peekc(ctx, 2)) < 16) {
		base = 16;
		getc_(ctx);
		getc_(ctx);
	}
	while (base == 16 ? digit_val(peekc(ctx, 0)) < 16 : is_digit(peekc(ctx, 0))) {
		int d = digit_val(getc_(ctx));
		if (d >= (int)base && !stopped)
			bad = '0' + d;
		stopped = stopped || d >= (int)base;
		if (stopped)
			continue;
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			oflow = true;
		v = v * base + (uint64_t)d;
	}
	bool u = false;
	int l = 0;
	if ((peekc(ctx, 0) | 32) == 'u') {
		getc_(ctx);
		u = true;
	}
	while (l < 2 && (peekc(ctx, 0) | 32) == 'l') {
		getc_(ctx);
		l++;
	}
	char text[64];
	tok_text(ctx, t, text, sizeof(text));
	if (oflow)
		dt_error_at(ctx, t->t_line, t->t_col, "D_INT_OFLOW",
		    "constant %s results in integer overflow", text);
	if (bad != 0)
		dt_error_at(ctx, t->t_line, t->t_col, "D_INT_DIGIT",
		    "constant %s contains invalid digit %c", text, bad);
	/* C's rules for the type of an integer constant (LP64). */
	t->t_isize = 4;
	if (l == 0 && !u && v <= 0x7fffffffULL) {
		t->t_isize = 4;
	} else if (l == 0 && (u || base != 10) && v <= 0xffffffffULL) {
		t->t_isize = 4;
		u = true;
	} else {
		t->t_isize = 8;
		if (v > 0x7fffffffffffffffULL)
			u = true;
	}
	t->t_kind = DT_T_INT;
	t->t_ival = v;
	t->t_iunsigned = u;
}

/* ---- characters and strings ---- */

/* Read one (possibly escaped) character of a char/string literal. */
static int lex_escape(dt_ctx *ctx)
{
	int c = getc_(ctx);
	if (c != '\\')
		return c;
	c = getc_(ctx);
	switch (c) {
	case 'n': return ('\n');
	case 't': return ('\t');
	case 'r': return ('\r');
	case 'a': return ('\a');
	case 'b': return ('\b');
	case 'f': return ('\f');
	case 'v': return ('\v');
	case 'x': {
		int v = 0, n = 0;
		while (n < 2 && digit_val(peekc(ctx, 0)) < 16) {
			v = v * 16 + digit_val(getc_(ctx));
			n++;
		}
		return v;
	}
	default:
		if (c >= '0' && c <= '7') {
			int v = c - '0', n = 1;
			while (n < 3 && peekc(ctx, 0) >= '0' &&
			    peekc(ctx, 0) <= '7') {
				v = v * 8 + (getc_(ctx) - '0');
				n++;
			}
			return v & 0xff;
		}
		return c;	/* \\ \' \" \? and unknown: the char itself */
	}
}

static void lex_char(dt_ctx *ctx, dt_tok *t)
{
	uint64_t v = 0;
	int n = 0;
	getc_(ctx);
	for (;;) {
		int c = peekc(ctx, 0);
		if (c < 0 || c == '\n')
			lex_error(ctx, "D_CHR_NL",
			    "newline encountered in character constant%s", "");
		if (c == '\'')
			break;
		c = lex_escape(ctx);
		if (++n > 8)
			lex_error(ctx, "D_CHR_OFLOW",
			    "character constant is too long%s", "");
		v = (v << 8) | (uint8_t)c;
	}
	getc_(ctx);
	if (n == 0)
		dt_error_at(ctx, t->t_line, t->t_col, "D_CHR_NULL",
		    "empty character constant");
	/*
	 * As in DTrace, the bytes of the constant, first byte most
	 * significant, are an integer constant typed by its value like any
	 * other ('a' is an int 97, '\377' is 255, 'ab' is 0x6162).
	 */
	t->t_kind = DT_T_INT;
	t->t_ival = v;
	t->t_isize = v <= 0x7fffffff ? 4 : 8;
	t->t_iunsigned = v > 0x7fffffffffffffffULL;
	t->t_fromchar = 1;
}

static void lex_string(dt_ctx *ctx, dt_tok *t)
{
	size_t start = ctx->c_pos + 1;
	size_t cap = 0;
	getc_(ctx);
	/* worst case the string is as long as its source text */
	while (start + cap < ctx->c_len && ctx->c_src[start + cap] != '"') {
		if (ctx->c_src[start + cap] == '\\')
			cap++;
		cap++;
	}
	char *s = dt_alloc(ctx, cap + 1);
	size_t n = 0;
	for (;;) {
		int c = peekc(ctx, 0);
		if (c < 0 || c == '\n')
			lex_error(ctx, "D_STR_NL",
			    "newline encountered in string literal%s", "");
		if (c == '"')
			break;
		c = lex_escape(ctx);
		if (c < 0)
			lex_error(ctx, "D_STR_NL",
			    "newline encountered in string literal%s", "");
		if (n < cap)
			s[n++] = (char)c;
	}
	getc_(ctx);
	s[n] = '\0';
	t->t_kind = DT_T_STR;
	t->t_str = s;
	t->t_slen = (uint32_t)n;
}

/* ---- words, macros and symbols ---- */

static char *read_word(dt_ctx *ctx)
{
	size_t s = ctx->c_pos;
	while (is_alnum(peekc(ctx, 0)))
		getc_(ctx);
	return dt_strdup(ctx, ctx->c_src + s, ctx->c_pos - s);
}

/* $n (str: $$n); with defaultargs a missing one is 0 (or ""). */
static const char *macro_arg(dt_ctx *ctx, int n, bool str, const dt_tok *t)
{
	const dt_opts *o = ctx->c_opts;
	if (n >= o->o_argc || o->o_argv == NULL || o->o_argv[n] == NULL) {
		if (ctx->c_defargs)
			return str ? "" : "0";
		dt_error_at(ctx, t->t_line, t->t_col, "D_MACRO_UNDEF",
		    "macro argument %s%d is not defined", str ? "$$" : "$", n);
	}
	if (n == o->o_argc - 1)
		ctx->c_lastref = true;
	return o->o_argv[n];
}

/*
 * $target and the consumer's own macro variables ($pid, $uid, $cwd...):
 * their value as text, NULL if w names none.  $cwd is a string.
 */
static const char *macro_var(dt_ctx *ctx, const char *w, const dt_tok *t, char *num,
                             size_t len, bool *isstr)
{
	const dt_opts *o = ctx->c_opts;
	int64_t v;
	*isstr = false;
	if (dt_streq(w, "target")) {
		if (o->o_target < 0)
			dt_error_at(ctx, t->t_line, t->t_col, "D_MACRO_UNDEF",
			    "macro variable $%s is not defined", w);
		v = o->o_target;
	} else if (dt_streq(w, "pid") || dt_streq(w, "pgid") ||
	    dt_streq(w, "sid")) {
		v = o->o_pid;
	} else if (dt_streq(w, "ppid")) {
		v = o->o_ppid;
	} else if (dt_streq(w, "uid") || dt_streq(w, "euid")) {
		v = o->o_uid;
	} else if (dt_streq(w, "gid") || dt_streq(w, "egid")) {
		v = o->o_gid;
	} else if (dt_streq(w, "projid") || dt_streq(w, "taskid") ||
	    dt_streq(w, "zoneid")) {
		v = 0;
	} else if (dt_streq(w, "cwd")) {
		*isstr = true;
		return o->o_cwd != NULL ? o->o_cwd : "/";
	} else {
		return NULL;
	}
	dt_snprintf(num, len, "%lld", (long long)v);
	return num;
}

static bool parse_int(const char *s, uint64_t *v)
{
	uint64_t x = 0;
	unsigned base = 10;
	if (*s == '\0')
		return false;
	if (s[0] == '0' && (s[1] | 32) == 'x' && s[2] != '\0') {
		base = 16;
		s += 2;
	} else if (s[0] == '0') {
		base = 8;
	}
	for (; *s != '\0'; s++) {
		int d = digit_val((unsigned char)*s);
		if (d >= (int)base)
			return false;
		x = x * base + (uint64_t)d;
	}
	*v = x;
	return true;
}

/* $1..$n, $$1.., $target, $pid, $cwd...: expand into an INT, STR or IDENT token. */
static void lex_macro(dt_ctx *ctx, dt_tok *t)
{
	bool str = false;
	getc_(ctx);
	if (peekc(ctx, 0) == '$') {
		getc_(ctx);
		str = true;
	}
	const char *val;
	char num[24];
	if (is_digit(peekc(ctx, 0))) {
		int n = 0;
		while (is_digit(peekc(ctx, 0)) && n < 1000)
			n = n * 10 + (getc_(ctx) - '0');
		val = macro_arg(ctx, n, str, t);
	} else if (is_alpha(peekc(ctx, 0))) {
		char *w = read_word(ctx);
		bool isstr;
		val = macro_var(ctx, w, t, num, sizeof(num), &isstr);
		if (val == NULL)
			dt_error_at(ctx, t->t_line, t->t_col, "D_MACRO_UNDEF",
			    "macro variable %s%s is not defined",
			    str ? "$$" : "$", w);
		str |= isstr;
	} else {
		lex_error(ctx, "D_SYNTAX", "syntax error near \"%s\"", "$");
	}
	uint64_t v;
	if (str) {
		t->t_kind = DT_T_STR;
		t->t_str = dt_strdup(ctx, val, dt_strlen(val));
		t->t_slen = (uint32_t)dt_strlen(val);
	} else if (parse_int(val, &v)) {
		t->t_kind = DT_T_INT;
		t->t_ival = v;
		t->t_isize = v > 0x7fffffff ? 8 : 4;
	} else {
		t->t_kind = DT_T_IDENT;
		t->t_str = dt_strdup(ctx, val, dt_strlen(val));
		for (const char *p = val; *p; p++)
			if (!is_alnum((unsigned char)*p))
				dt_error_at(ctx, t->t_line, t->t_col,
				    "D_MACRO_UNDEF", "macro argument %s is not "
				    "a valid identifier or integer", val);
		if (*val == '\0' || is_digit((unsigned char)*val))
			dt_error_at(ctx, t->t_line, t->t_col, "D_MACRO_UNDEF",
			    "macro argument %s is not a valid identifier or "
			    "integer", val);
	}
}

static bool type_keyword(dt_tokkind k)
{
	switch (k) {
	case DT_T_CHAR: case DT_T_SHORT: case DT_T_INT_KW: case DT_T_LONG:
	case DT_T_SIGNED: case DT_T_UNSIGNED: case DT_T_VOID:
	case DT_T_STRING: case DT_T_STRUCT: case DT_T_UNION: case DT_T_ENUM:
	case DT_T_FLOAT: case DT_T_DOUBLE:
		return true;
	default:
		return false;
	}
}

/*
 * mod`name: a kernel symbol, or, when name is a type (a type keyword or a
 * typedef name: D`int, kernel`uint32_t), that type scoped to the module.
 * Sonde has one type name space, the D compiler's own, which stands for
 * D and kernel alike (no CTF): the scope is dropped.
 */
static void lex_scoped(dt_ctx *ctx, dt_tok *t, const char *mod)
{
	getc_(ctx);
	char *s = read_word(ctx);
	t->t_str = s;
	for (size_t i = 0; i < NKW; i++) {
		dt_tokkind k = (dt_tokkind)(DT_T_KW_FIRST + i);
		if (dt_streq(s, dt_keywords[i]) && type_keyword(k)) {
			t->t_kind = k;
			return;
		}
	}
	dt_ident *id = dt_ident_lookup(&ctx->c_types, s);
	if (id == NULL && !dt_streq(mod, "D"))
		id = dt_ctf_typename(ctx, s);	/* kernel`dtrace_id_t */
	t->t_kind = id != NULL && id->id_kind == DT_IDK_TYPEDEF ?
	    DT_T_TYPENAME : DT_T_SYM;
}

static void lex_word(dt_ctx *ctx, dt_tok *t)
{
	char *w = read_word(ctx);
	if (peekc(ctx, 0) == '`') {	/* mod`sym */
		lex_scoped(ctx, t, w);
		return;
	}
	for (size_t i = 0; i < NKW; i++) {
		if (w[0] == dt_keywords[i][0] && dt_streq(w, dt_keywords[i])) {
			t->t_kind = (dt_tokkind)(DT_T_KW_FIRST + i);
			t->t_str = w;
			return;
		}
	}
	t->t_str = w;
	dt_ident *id = dt_ident_lookup(&ctx->c_types, w);
	if (id == NULL)
		id = dt_ctf_typename(ctx, w);	/* a kernel typedef */
	t->t_kind = id != NULL && id->id_kind == DT_IDK_TYPEDEF ?
	    DT_T_TYPENAME : DT_T_IDENT;
}

/* ---- probe descriptions ---- */

static bool is_pdesc_char(int c)
{
	return (is_alnum(c) || c == '-' || c == ':' || c == '*' ||
	    c == '?' || c == '[' || c == ']' || c == '.' || c == '\\' ||
	    c == '$' || c == '`' || c == '!' || c == '~' || c == '+');
}

/* Does the word at the current position start a declaration? */
static bool top_is_decl(dt_ctx *ctx)
{
	size_t p = ctx->c_pos, n = 0;
	while (p + n < ctx->c_len && is_pdesc_char(ctx->c_src[p + n]))
		n++;
	if (n == 0)
		return true;
	for (size_t i = 1; i + 1 < n; i++)
		if (ctx->c_src[p + i] == '`') {	/* D`int x; as a type? */
			p += i + 1;
			n -= i + 1;
			break;
		}
	for (size_t i = 0; i < n; i++)
		if (!is_alnum(ctx->c_src[p + i]))
			return false;
	if (is_digit(ctx->c_src[p]))
		return false;
	char w[64];
	if (n >= sizeof(w))
		return false;
	__builtin_memcpy(w, ctx->c_src + p, n);
	w[n] = '\0';
	for (size_t i = 0; i < NKW; i++)
		if (w[0] == dt_keywords[i][0] && dt_streq(w, dt_keywords[i]))
			return true;
	dt_ident *id = dt_ident_lookup(&ctx->c_types, w);
	return id != NULL && id->id_kind == DT_IDK_TYPEDEF;
}

/* Append s to the pdesc buffer. */
static void pd_append(char *buf, size_t *n, size_t cap, const char *s, size_t len)
{
	for (size_t i = 0; i < len && *n + 1 < cap; i++)
		buf[(*n)++] = s[i];
}

static void lex_pdesc(dt_ctx *ctx, dt_tok *t)
{
	char buf[DT_PROVNAMELEN + DT_MODNAMELEN + DT_FUNCNAMELEN +
	    DT_NAMELEN + 8];
	size_t n = 0;
	while (is_pdesc_char(peekc(ctx, 0))) {
		if (peekc(ctx, 0) == '$') {
			dt_tok m = *t;
			lex_macro(ctx, &m);
			char num[24];
			if (m.t_kind == DT_T_INT) {
				dt_snprintf(num, sizeof(num), "%llu",
				    (unsigned long long)m.t_ival);
				pd_append(buf, &n, sizeof(buf), num,
				    dt_strlen(num));
			} else {
				pd_append(buf, &n, sizeof(buf), m.t_str,
				    dt_strlen(m.t_str));
			}
			continue;
		}
		char c = (char)getc_(ctx);
		pd_append(buf, &n, sizeof(buf), &c, 1);
	}
	if (n == 0)
		dt_error_at(ctx, t->t_line, t->t_col, "D_SYNTAX",
		    "syntax error near \"%c\"", peekc(ctx, 0) < 0 ? ' ' :
		    peekc(ctx, 0));
	t->t_kind = DT_T_PDESC;
	t->t_str = dt_strdup(ctx, buf, n);
	t->t_slen = (uint32_t)n;
}

/* ---- entry point ---- */

static void lex_punct(dt_ctx *ctx, dt_tok *t)
{
	int c0 = peekc(ctx, 0);
	for (size_t i = 0; i < NPUNCT; i++) {
		const char *p = dt_puncts[i].p;
		size_t k = 0;
		if ((unsigned char)p[0] != c0)
			continue;
		while (p[k] != '\0' && peekc(ctx, k) == (unsigned char)p[k])
			k++;
		if (p[k] == '\0') {
			while (k-- > 0)
				getc_(ctx);
			t->t_kind = dt_puncts[i].k;
			return;
		}
	}
	int c = peekc(ctx, 0);
	char s[2] = { (char)c, 0 };
	lex_error(ctx, "D_SYNTAX", "syntax error near \"%s\"", s);
}

static void lex_agg(dt_ctx *ctx, dt_tok *t)
{
	getc_(ctx);
	t->t_kind = DT_T_AGG;
	t->t_str = is_alpha(peekc(ctx, 0)) ? read_word(ctx) : "";
}

/*
 * dt_lex_next: read the next token into ctx->c_tok (the old one moves to
 * c_prev).  mode says whether a probe description may start here.
 */
/*
 * DTrace's lexer counts the parentheses and brackets it has seen: one that
 * closes more than were opened is "extra ) in input stream", and the '/'
 * that ends a predicate (one followed by '{', ';', '/' or the end) with
 * one still open is "closing ) expected in predicate before /".  Each
 * token is counted once, the first time it is read (the parser's
 * lookaheads read some twice).
 */
static void lex_count(dt_ctx *ctx, const dt_tok *t)
{
	int c;
	switch (t->t_kind) {
	case DT_T_LPAR: ctx->c_parens++; break;
	case DT_T_LBRAC: ctx->c_brackets++; break;
	case DT_T_RPAR:
		if (--ctx->c_parens < 0)
			dt_error_at(ctx, t->t_line, t->t_col, "D_SYNTAX",
			    "extra ) in input stream");
		break;
	case DT_T_RBRAC:
		if (--ctx->c_brackets < 0)
			dt_error_at(ctx, t->t_line, t->t_col, "D_SYNTAX",
			    "extra ] in input stream");
		break;
	case DT_T_SLASH:
		c = dt_lex_peek_char(ctx);
		if (!ctx->c_inpred || (c != '{' && c != ';' && c != '/' && c >= 0))
			break;
		if (ctx->c_parens != 0)
			dt_error_at(ctx, t->t_line, t->t_col, "D_SYNTAX",
			    "closing ) expected in predicate before /");
		if (ctx->c_brackets != 0)
			dt_error_at(ctx, t->t_line, t->t_col, "D_SYNTAX",
			    "closing ] expected in predicate before /");
		break;
	default:
		break;
	}
}

void dt_lex_next(dt_ctx *ctx, dt_lexmode mode)
{
	ctx->c_prev = ctx->c_tok;
	skip_space(ctx);
	dt_tok *t = &ctx->c_tok;
	__builtin_memset(t, 0, sizeof(*t));
	t->t_line = ctx->c_line;
	t->t_col = ctx->c_col;
	t->t_off = (uint32_t)ctx->c_pos;
	int c = peekc(ctx, 0);
	if (c < 0)
		t->t_kind = DT_T_EOF;
	else if ((mode == DT_LEX_PDESC && is_pdesc_char(c)) ||
	    (mode == DT_LEX_TOP && !top_is_decl(ctx)))
		lex_pdesc(ctx, t);
	else if (is_digit(c))
		lex_number(ctx, t);
	else if (is_alpha(c))
		lex_word(ctx, t);
	else if (c == '\'')
		lex_char(ctx, t);
	else if (c == '"')
		lex_string(ctx, t);
	else if (c == '$')
		lex_macro(ctx, t);
	else if (c == '@')
		lex_agg(ctx, t);
	else if (c == '`') {
		getc_(ctx);
		t->t_kind = DT_T_SYM;
		t->t_str = read_word(ctx);
	} else
		lex_punct(ctx, t);
	t->t_len = (uint32_t)(ctx->c_pos - t->t_off);
	if (mode != DT_LEX_PDESC && t->t_kind != DT_T_EOF &&
	    t->t_off >= ctx->c_lexhw) {
		ctx->c_lexhw = t->t_off + 1;
		lex_count(ctx, t);
	}
}

/*
 * The next significant character after the current token, without
 * consuming anything (used to find the '/' that ends a predicate).
 */
int dt_lex_peek_char(dt_ctx *ctx)
{
	size_t p = ctx->c_pos;
	while (p < ctx->c_len) {
		char c = ctx->c_src[p];
		if (is_space((unsigned char)c)) {
			p++;
		} else if (c == '/' && p + 1 < ctx->c_len &&
		    ctx->c_src[p + 1] == '*') {
			p += 2;
			while (p + 1 < ctx->c_len && !(ctx->c_src[p] == '*' &&
			    ctx->c_src[p + 1] == '/'))
				p++;
			p += 2;
		} else {
			return (unsigned char)c;
		}
	}
	return -1;
}

void dt_lex_init(dt_ctx *ctx)
{
	ctx->c_parens = ctx->c_brackets = 0;
	ctx->c_lexhw = 0;
	ctx->c_pos = 0;
	ctx->c_line = 1;
	ctx->c_col = 1;
	__builtin_memset(&ctx->c_tok, 0, sizeof(ctx->c_tok));
}

/* The source text of a token, for "syntax error near" messages. */
void dt_tok_text(dt_ctx *ctx, const dt_tok *t, char *buf, size_t len)
{
	size_t n = t->t_len < len - 1 ? t->t_len : len - 1;
	if (t->t_off + n > ctx->c_len)
		n = 0;
	__builtin_memcpy(buf, ctx->c_src + t->t_off, n);
	buf[n] = '\0';
}
