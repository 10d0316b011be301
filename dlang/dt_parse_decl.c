/*
 * dlang/dt_parse_decl.c: the parser's declarations and type names.
 *
 * The productions of D's declarations: type specifiers (with C's counting
 * rules for short/long/signed/unsigned), struct/union/enum bodies,
 * declarators with array dimensions and function prototypes, associative
 * array key lists, storage classes (one at most; D's own self, this,
 * typedef and extern; without a type a declaration is of an int),
 * typedef, inline and translator definitions.  Each production has its
 * grammar rule in the comment above it; the semantic side (laying out
 * types, declaring identifiers) is in dt_decl.c.  The token helpers and
 * the expression parser are dt_parse.c's (dt_next, dt_accept, ...).
 *
 * Tests: tests/d/err.D_DECL_*.d, err.D_XLATE_*.d; tests/dlang/xlate.S;
 *        tests/d/types/tst.funcptr*.d, tst.scoped_types.d
 */
#include "dlang/dt.h"

/* The current token's kind. */
static dt_tokkind tok(dt_ctx *ctx)
{
	return ctx->c_tok.t_kind;
}


/* Can the current token start a type name (casts, sizeof, declarations)? */
bool dt_starts_type(dt_ctx *ctx)
{
	switch (tok(ctx)) {
	case DT_T_CHAR: case DT_T_SHORT: case DT_T_INT_KW: case DT_T_LONG:
	case DT_T_SIGNED: case DT_T_UNSIGNED: case DT_T_VOID:
	case DT_T_STRING: case DT_T_STRUCT: case DT_T_UNION: case DT_T_ENUM:
	case DT_T_CONST: case DT_T_VOLATILE: case DT_T_TYPENAME:
	case DT_T_USERLAND: case DT_T_RESTRICT: case DT_T_FLOAT:
	case DT_T_DOUBLE:
		return true;
	default:
		return false;
	}
}

/* constant-expr: conditional, folded to an integer constant */
static int64_t const_expr(dt_ctx *ctx)
{
	dt_node *n = dt_parse_cond(ctx);
	return dt_sema_const(ctx, n);
}

/*
 * array-dim: constant-expr ']' -- the (nd+1)th dimension, with DTrace's
 * checks: a positive constant (D_DECL_ARRSUB) that fits 32 bits
 * (D_DECL_ARRBIG); Sonde takes at most eight dimensions.
 */
static uint32_t array_dim(dt_ctx *ctx, int nd)
{
	dt_tok t = ctx->c_tok;
	int64_t v = const_expr(ctx);
	if (v <= 0)
		dt_error_at(ctx, t.t_line, t.t_col, "D_DECL_ARRSUB", "positive "
		    "integral constant expression or tuple signature expected "
		    "as array declaration subscript");
	if (v > 0xffffffffLL || nd >= 8)
		dt_error_at(ctx, t.t_line, t.t_col, "D_DECL_ARRBIG", "array "
		    "dimension too big");
	dt_expect(ctx, DT_T_RBRAC);
	return (uint32_t)v;
}

static dt_type *decl_specifiers(dt_ctx *ctx);
static const char *declarator(dt_ctx *ctx, dt_type **tp);

/*
 * sou-body: '{' { specifiers member-declarator
 *                 { ',' member-declarator } ';' } '}'
 * member-declarator: declarator [ ':' constant-expr ] | ':' constant-expr
 */
static void sou_body(dt_ctx *ctx, dt_type *sou)
{
	dt_expect(ctx, DT_T_LBRACE);
	while (!dt_accept(ctx, DT_T_RBRACE)) {
		dt_type *base = decl_specifiers(ctx);
		do {
			dt_node *where = dt_node_here(ctx, DT_N_DECL);
			dt_type *mt = base;
			const char *name = tok(ctx) == DT_T_COLON ? NULL :
			    declarator(ctx, &mt);
			if (dt_accept(ctx, DT_T_COLON)) {
				dt_node *w = dt_parse_cond(ctx);
				dt_bitfield_member(ctx, where, sou, name, mt, w);
				continue;
			}
			dt_sou_member(ctx, where, sou, name, mt);
		} while (dt_accept(ctx, DT_T_COMMA));
		dt_expect(ctx, DT_T_SEMI);
	}
	dt_sou_end(ctx, sou);
}

/*
 * enum-body: '{' enumerator { ',' enumerator } [','] '}'
 * enumerator: identifier [ '=' constant-expr ]
 */
static void enum_body(dt_ctx *ctx, dt_type *en)
{
	int64_t v = 0;
	dt_expect(ctx, DT_T_LBRACE);
	do {
		if (tok(ctx) == DT_T_RBRACE)
			break;
		dt_node *where = dt_node_here(ctx, DT_N_DECL);
		const char *name = dt_ident_name(ctx);
		if (dt_accept(ctx, DT_T_ASGN))
			v = const_expr(ctx);
		dt_enum_member(ctx, where, en, name, v);
		v++;
	} while (dt_accept(ctx, DT_T_COMMA));
	dt_expect(ctx, DT_T_RBRACE);
	dt_sou_end(ctx, en);
}

/*
 * tagged-type: ('struct'|'union'|'enum') [module '`'] identifier
 *            | ('struct'|'union') [identifier] sou-body
 *            | 'enum' [identifier] enum-body
 */
static dt_type *tagged_type(dt_ctx *ctx)
{
	dt_tokkind kw = tok(ctx);
	dt_node *where = dt_node_here(ctx, DT_N_DECL);
	dt_next(ctx);
	const char *tag = NULL;
	if (tok(ctx) == DT_T_IDENT || tok(ctx) == DT_T_TYPENAME)
		tag = dt_ident_name(ctx);
	else if (tok(ctx) == DT_T_SYM) {
		/*
		 * struct D`foo, struct kernel`buf: the Guide's scoped tag.
		 * Sonde's one type name space stands for every module's, so
		 * the scope is dropped (dt_lex.c's lex_scoped).
		 */
		tag = ctx->c_tok.t_str;
		dt_next(ctx);
		if (tok(ctx) == DT_T_LBRACE)
			dt_error_tok(ctx, "D_DECL_SCOPE", "D scoping operator "
			    "may not be used in a declaration name (`%s)", tag);
	}
	bool body = tok(ctx) == DT_T_LBRACE;
	if (tag == NULL && !body)
		dt_syntax_error(ctx);
	dt_type *t = dt_type_tagged(ctx, where, kw, tag, body);
	if (body && kw == DT_T_ENUM)
		enum_body(ctx, t);
	else if (body)
		sou_body(ctx, t);
	return t;
}

/* Count-based C type specifier combination. */
typedef struct spec_counts {
	int sc_char, sc_short, sc_int, sc_long, sc_signed, sc_unsigned;
	int sc_void, sc_string, sc_float, sc_double;
	dt_type *sc_named;
} spec_counts;

/*
 * DTrace's checks of the attributes (short, long, signed, unsigned) against
 * the type they qualify, in its order, before any generic D_DECL_COMBO:
 * char takes no short or long, void no attribute, only integers a sign,
 * only integers and floating-point types a long.  A typedef name, a string
 * or a struct, union or enum tag counts as not an integer, whatever it
 * names (DTrace checks the specifier, not the type it resolves to).
 */
static void spec_check_attrs(dt_ctx *ctx, const spec_counts *s, const dt_tok *t)
{
	int lengths = s->sc_short + s->sc_long;
	int signs = s->sc_signed + s->sc_unsigned;
	bool integer = s->sc_char || s->sc_int || (s->sc_named == NULL &&
	    !s->sc_void && !s->sc_string && !s->sc_float && !s->sc_double);
	bool fp = s->sc_named == NULL && (s->sc_float || s->sc_double);
	if (s->sc_char && s->sc_named == NULL && lengths != 0)
		dt_error_at(ctx, t->t_line, t->t_col, "D_DECL_CHARATTR",
		    "invalid type declaration: short and long may not be "
		    "used with char type");
	if (s->sc_void && s->sc_named == NULL && lengths + signs != 0)
		dt_error_at(ctx, t->t_line, t->t_col, "D_DECL_VOIDATTR",
		    "invalid type declaration: attributes may not be used "
		    "with void type");
	if (!integer && signs != 0)
		dt_error_at(ctx, t->t_line, t->t_col, "D_DECL_SIGNINT",
		    "invalid type declaration: signed and unsigned may only "
		    "be used with integer type");
	if (!integer && !fp && s->sc_long != 0)
		dt_error_at(ctx, t->t_line, t->t_col, "D_DECL_LONGINT",
		    "invalid type declaration: long and long long may only "
		    "be used with integer or floating-point type");
}

/* The type named by a set of specifier keywords, with C's rules. */
static dt_type *spec_resolve(dt_ctx *ctx, const spec_counts *s, const dt_tok *t)
{
	int basic = s->sc_char + s->sc_short + s->sc_int + s->sc_long +
	    s->sc_signed + s->sc_unsigned + s->sc_void + s->sc_string +
	    s->sc_float + s->sc_double;
	spec_check_attrs(ctx, s, t);
	if (s->sc_named != NULL) {
		if (basic != 0)
			dt_error_at(ctx, t->t_line, t->t_col, "D_DECL_COMBO",
			    "invalid type combination");
		return s->sc_named;
	}
	if (s->sc_float || s->sc_double)
		return (dt_float_resolve(ctx, s->sc_float, s->sc_double,
		    s->sc_long, basic - s->sc_float - s->sc_double - s->sc_long,
		    t->t_line, t->t_col));
	if ((s->sc_signed && s->sc_unsigned) || s->sc_signed > 1 ||
	    s->sc_unsigned > 1 || s->sc_short > 1 || s->sc_long > 2 ||
	    s->sc_char > 1 || s->sc_int > 1 ||
	    (s->sc_short && (s->sc_long || s->sc_char)) ||
	    (s->sc_char && (s->sc_long)) ||
	    ((s->sc_void || s->sc_string) && basic > 1))
		dt_error_at(ctx, t->t_line, t->t_col, "D_DECL_COMBO",
		    "invalid type combination");
	if (s->sc_void)
		return ctx->c_t_void;
	if (s->sc_string)
		return ctx->c_t_string;
	if (basic == 0)
		dt_error_at(ctx, t->t_line, t->t_col, "D_DECL_TYPENAME",
		    "type specifier expected");
	bool sign = !s->sc_unsigned;
	uint32_t size = s->sc_char ? 1 : s->sc_short ? 2 : s->sc_long ? 8 : 4;
	if (s->sc_char && !s->sc_signed && !s->sc_unsigned)
		return ctx->c_t_char;
	if (s->sc_long == 2)
		return sign ? ctx->c_t_llong : ctx->c_t_ullong;
	return dt_type_int(ctx, size, sign);
}

/*
 * specifiers: { 'const' | 'volatile' | 'restrict' | 'userland' | 'signed'
 *             | 'unsigned' | 'char' | 'short' | 'int' | 'long' | 'void'
 *             | 'string' | typedef-name | sou-specifier | enum-specifier }
 */
static dt_type *decl_specifiers(dt_ctx *ctx)
{
	spec_counts s;
	__builtin_memset(&s, 0, sizeof(s));
	dt_tok first = ctx->c_tok;
	for (;;) {
		switch (tok(ctx)) {
		case DT_T_CONST: case DT_T_VOLATILE: case DT_T_RESTRICT:
		case DT_T_USERLAND:
			break;
		case DT_T_CHAR: s.sc_char++; break;
		case DT_T_SHORT: s.sc_short++; break;
		case DT_T_INT_KW: s.sc_int++; break;
		case DT_T_LONG: s.sc_long++; break;
		case DT_T_SIGNED: s.sc_signed++; break;
		case DT_T_UNSIGNED: s.sc_unsigned++; break;
		case DT_T_VOID: s.sc_void++; break;
		case DT_T_STRING: s.sc_string++; break;
		case DT_T_FLOAT: s.sc_float++; break;
		case DT_T_DOUBLE: s.sc_double++; break;
		case DT_T_TYPENAME:
			/* after a type, a type name is the declarator's
			 * identifier; after attributes alone, the type */
			if (s.sc_named != NULL || s.sc_char + s.sc_int +
			    s.sc_void + s.sc_string + s.sc_float +
			    s.sc_double != 0)
				return spec_resolve(ctx, &s, &first);
			s.sc_named = dt_type_lookup(ctx, ctx->c_tok.t_str);
			break;
		case DT_T_STRUCT: case DT_T_UNION: case DT_T_ENUM:
			if (s.sc_named != NULL)
				dt_error_tok(ctx, "D_DECL_COMBO",
				    "invalid type combination");
			s.sc_named = tagged_type(ctx);
			continue;
		default:
			return spec_resolve(ctx, &s, &first);
		}
		dt_next(ctx);
	}
}

/* pointer: { '*' { 'const' | 'volatile' | 'restrict' } } */
static dt_type *pointers(dt_ctx *ctx, dt_type *t)
{
	while (dt_accept(ctx, DT_T_STAR)) {
		t = dt_type_ptr(ctx, t);
		while (dt_accept(ctx, DT_T_CONST) || dt_accept(ctx, DT_T_VOLATILE) ||
		    dt_accept(ctx, DT_T_RESTRICT))
			;
	}
	return t;
}

/*
 * With '(' as the current token: does a parenthesized declarator follow
 * ("(*fp)")?  Peeks one token and puts the lexer back.
 */
static DT_NOINLINE bool paren_star_follows(dt_ctx *ctx)
{
	if (tok(ctx) != DT_T_LPAR)
		return false;
	size_t pos = ctx->c_pos;
	uint32_t line = ctx->c_line, col = ctx->c_col;
	dt_tok cur = ctx->c_tok, prev = ctx->c_prev;
	dt_next(ctx);
	bool r = tok(ctx) == DT_T_STAR;
	ctx->c_pos = pos;
	ctx->c_line = line;
	ctx->c_col = col;
	ctx->c_tok = cur;
	ctx->c_prev = prev;
	return r;
}

/* The lexer's position, to read a parenthesized declarator after its suffix. */
typedef struct lexpos {
	size_t lp_pos;
	uint32_t lp_line, lp_col;
	dt_tok lp_tok, lp_prev;
} lexpos;

static void lex_save(const dt_ctx *ctx, lexpos *p)
{
	p->lp_pos = ctx->c_pos;
	p->lp_line = ctx->c_line;
	p->lp_col = ctx->c_col;
	p->lp_tok = ctx->c_tok;
	p->lp_prev = ctx->c_prev;
}

static void lex_restore(dt_ctx *ctx, const lexpos *p)
{
	ctx->c_pos = p->lp_pos;
	ctx->c_line = p->lp_line;
	ctx->c_col = p->lp_col;
	ctx->c_tok = p->lp_tok;
	ctx->c_prev = p->lp_prev;
}

/* Skip '(' ... ')' with the parentheses inside balanced. */
static void skip_parens(dt_ctx *ctx)
{
	int depth = 0;
	do {
		if (tok(ctx) == DT_T_EOF)
			dt_syntax_error(ctx);
		if (tok(ctx) == DT_T_LPAR)
			depth++;
		else if (tok(ctx) == DT_T_RPAR)
			depth--;
		dt_next(ctx);
	} while (depth > 0);
}

static dt_type *func_type(dt_ctx *ctx, dt_type *ret, const char *fname);

/* The suffix after a declarator's name: a prototype, or dimensions. */
static dt_type *suffix_read(dt_ctx *ctx, dt_type *t, const char *name)
{
	if (tok(ctx) == DT_T_LPAR)
		return func_type(ctx, t, name);
	uint32_t dims[8];
	int nd = 0;
	while (tok(ctx) == DT_T_LBRAC && nd < 8) {
		dt_next(ctx);
		dims[nd] = array_dim(ctx, nd);
		nd++;
	}
	while (nd-- > 0)
		t = dt_type_array(ctx, t, dims[nd]);
	return t;
}

/*
 * A parenthesized declarator, C's "(*fp)" of a pointer to a function or
 * to an array ("int (*fp)(int)", "int (*ap)[4]", "void (*tab[3])(void)",
 * "int (*(*fpp)(int))(char)", a cast's abstract "int (*)(int)"), and its
 * suffix, on base type t.  The type is built inside out: the suffix after
 * the parentheses applies to t first, so it is read first (the
 * parentheses skipped), then the lexer goes back to read what they hold
 * (pointers, then a name or another parenthesized declarator, then its
 * own suffix) on that type, and on to after the suffix.
 *
 * inner: '(' pointer ( inner | [ identifier ] suffix ) ')' suffix
 */
static dt_type *inner_declarator(dt_ctx *ctx, dt_type *t, bool named,
                                 const char **namep)
{
	lexpos at, after;
	lex_save(ctx, &at);
	skip_parens(ctx);
	t = suffix_read(ctx, t, "(*)");
	lex_save(ctx, &after);
	lex_restore(ctx, &at);
	dt_expect(ctx, DT_T_LPAR);
	t = pointers(ctx, t);
	const char *name = NULL;
	if (paren_star_follows(ctx)) {
		t = inner_declarator(ctx, t, named, &name);
	} else {
		if (tok(ctx) == DT_T_SYM)
			dt_error_tok(ctx, "D_DECL_SCOPE", "D scoping operator "
			    "may not be used in a declaration name (`%s)",
			    ctx->c_tok.t_str);
		if (tok(ctx) == DT_T_IDENT || tok(ctx) == DT_T_TYPENAME)
			name = dt_ident_name(ctx);
		else if (named)
			dt_syntax_error(ctx);
		t = suffix_read(ctx, t, name != NULL ? name : "(*)");
	}
	dt_expect(ctx, DT_T_RPAR);
	lex_restore(ctx, &after);
	if (namep != NULL)
		*namep = name;
	return t;
}

/*
 * declarator: pointer identifier { '[' constant-expr ']' }
 *           | pointer inner suffix
 * (associative array keys are handled by var-declaration)
 */
static const char *declarator(dt_ctx *ctx, dt_type **tp)
{
	*tp = pointers(ctx, *tp);
	if (paren_star_follows(ctx)) {
		const char *name;
		*tp = inner_declarator(ctx, *tp, true, &name);
		return name;
	}
	const char *name = dt_ident_name(ctx);
	dt_type *dims[8];
	int nd = 0;
	while (tok(ctx) == DT_T_LBRAC && nd < 8) {
		dt_next(ctx);
		dims[nd] = (dt_type *)(uintptr_t)array_dim(ctx, nd);
		nd++;
	}
	while (nd-- > 0)
		*tp = dt_type_array(ctx, *tp, (uint32_t)(uintptr_t)dims[nd]);
	return name;
}

/*
 * type-name: specifiers pointer [ inner ] suffix
 * (C's abstract declarators: "int (*)(int)", "int [3]", "char *[2][4]")
 */
dt_type *dt_parse_type(dt_ctx *ctx)
{
	dt_type *t = pointers(ctx, decl_specifiers(ctx));
	if (paren_star_follows(ctx))
		return inner_declarator(ctx, t, false, NULL);
	if (tok(ctx) == DT_T_LBRAC)
		t = suffix_read(ctx, t, "(*)");
	return t;
}

static bool is_storage_class(dt_tokkind k);
static dt_tokkind storage_classes(dt_ctx *ctx, dt_tok *where, bool in_declaration);

/*
 * A parameter's (or an associative array key's) storage class: one at most
 * (D_DECL_CLASS, as it is read).  Returns it (DT_T_EOF: none), for
 * param_class_check once the parameter's type is read.
 */
static dt_tokkind param_class(dt_ctx *ctx, dt_tok *where)
{
	return storage_classes(ctx, where, false);
}

/* Only register, or none, as DTrace allows (D_DECL_PARMCLASS). */
static void param_class_check(dt_ctx *ctx, dt_tokkind cls, const dt_tok *where)
{
	if (cls != DT_T_EOF && cls != DT_T_REGISTER)
		dt_error_at(ctx, where->t_line, where->t_col,
		    "D_DECL_PARMCLASS", "inappropriate storage class for "
		    "function or associative array parameter");
}

/* key-list: type-name { ',' type-name }  (associative array keys) */
static uint32_t key_list(dt_ctx *ctx, dt_type **keys)
{
	uint32_t n = 0;
	do {
		if (n == DT_MAXKEYS)
			dt_error_tok(ctx, "D_DECL_ARRDIM",
			    "too many associative array keys");
		dt_tok ct = ctx->c_tok;
		dt_tokkind cls = param_class(ctx, &ct);
		keys[n++] = dt_parse_type(ctx);
		param_class_check(ctx, cls, &ct);
	} while (dt_accept(ctx, DT_T_COMMA));
	return n;
}

/*
 * param: specifiers pointer [ identifier | inner suffix ]
 *        { '[' constant-expr ']' }
 * The checks are DTrace's for a prototype: no dynamic type (an associative
 * array's keys, D_DECL_PROTO_TYPE), void only alone and unnamed
 * (D_DECL_PROTO_VOID, D_DECL_PROTO_NAME).  Returns its type.
 */
static dt_type *proto_param(dt_ctx *ctx, const char *fname, uint32_t i)
{
	dt_tok ct = ctx->c_tok;
	dt_tokkind cls = param_class(ctx, &ct);
	dt_tok pt = ctx->c_tok;
	if (!dt_starts_type(ctx))
		dt_error_tok(ctx, "D_DECL_PROTO_FORM", "parameter #%u of %s( ) "
		    "must be a type name", i, fname);
	dt_type *t = pointers(ctx, decl_specifiers(ctx));
	if (paren_star_follows(ctx))	/* a function pointer parameter */
		t = inner_declarator(ctx, t, false, NULL);
	bool named = tok(ctx) == DT_T_IDENT;
	const char *pname = named ? ctx->c_tok.t_str : "(anonymous)";
	if (named)
		dt_next(ctx);
	while (dt_accept(ctx, DT_T_LBRAC)) {
		if (dt_starts_type(ctx))
			dt_error_at(ctx, pt.t_line, pt.t_col, "D_DECL_PROTO_TYPE",
			    "function prototype may not use parameter of type "
			    "associative array: %s, parameter #%u", pname, i);
		(void)array_dim(ctx, 0);
	}
	param_class_check(ctx, cls, &ct);
	if (t->ty_kind == DT_TK_VOID && named)
		dt_error_at(ctx, pt.t_line, pt.t_col, "D_DECL_PROTO_NAME",
		    "void parameter may not have a name: %s", pname);
	return t;
}

/* Append s to the n bytes of buf (of len), cut to fit. */
static void name_add(char *buf, size_t len, size_t *n, const char *s)
{
	while (*s != '\0' && *n + 1 < len)
		buf[(*n)++] = *s++;
	buf[*n] = '\0';
}

/*
 * prototype: '(' [ 'void' | param { ',' param } [ ',' '...' ] ] ')'
 * A declared function is only checked: D programs cannot call one.  The
 * parameters' C spelling goes to buf ("int, char *, ...").
 */
static void proto_params(dt_ctx *ctx, const char *fname, char *buf, size_t len)
{
	size_t bn = 0;
	buf[0] = '\0';
	dt_expect(ctx, DT_T_LPAR);
	uint32_t i = 0;
	bool sawvoid = false;
	while (tok(ctx) != DT_T_RPAR) {
		if (i > 0)
			dt_expect(ctx, DT_T_COMMA);
		if (i > 0 && dt_accept(ctx, DT_T_ELLIPSIS)) {
			name_add(buf, len, &bn, ", ...");
			break;
		}
		dt_type *pt = proto_param(ctx, fname, ++i);
		bool v = pt->ty_kind == DT_TK_VOID;
		if ((v || sawvoid) && i > 1)
			dt_error_tok(ctx, "D_DECL_PROTO_VOID", "void must be "
			    "sole parameter");
		sawvoid = v;
		char tb[128];
		dt_type_name(pt, tb, sizeof(tb));
		name_add(buf, len, &bn, i > 1 ? ", " : "");
		name_add(buf, len, &bn, tb);
	}
	if (sawvoid && tok(ctx) != DT_T_RPAR)
		dt_error_tok(ctx, "D_DECL_PROTO_VOID", "void must be sole "
		    "parameter");
	dt_expect(ctx, DT_T_RPAR);
}

/*
 * A function type returning ret, its prototype read: named as C names a
 * pointer to it, "int (*)(int, ...)" (dt_type_name prints a pointer to a
 * function by this name).
 */
static dt_type *func_type(dt_ctx *ctx, dt_type *ret, const char *fname)
{
	char pb[192], rb[128];
	proto_params(ctx, fname, pb, sizeof(pb));
	dt_type_name(ret, rb, sizeof(rb));
	size_t n = dt_strlen(rb) + dt_strlen(pb) + 8;
	char *name = dt_alloc(ctx, n);
	const char *hole = NULL;	/* a function pointer's "(*)" in rb */
	for (const char *c = rb; ret->ty_kind == DT_TK_PTR && ret->ty_base != NULL &&
	    ret->ty_base->ty_kind == DT_TK_FUNC && *c != '\0'; c++)
		if (c[0] == '(' && c[1] == '*' && c[2] == ')') {
			hole = c;
			break;
		}
	if (hole != NULL) {	/* returning one: C's "int (*(*)(int))(char)" */
		size_t k = (size_t)(hole - rb);
		__builtin_memcpy(name, rb, k);
		dt_snprintf(name + k, n - k, "(*(*)(%s))%s", pb, hole + 3);
	} else
		dt_snprintf(name, n, "%s (*)(%s)", rb, pb);
	dt_type *t = dt_type_new(ctx, DT_TK_FUNC, 0, name);
	t->ty_base = ret;
	return t;
}

/*
 * var-declarator: pointer identifier [ '[' key-list ']' | { '[' const ']' }
 *               | prototype ]
 */
static bool var_declarator(dt_ctx *ctx, int scope, dt_type *base, bool is_typedef)
{
	dt_tok t = ctx->c_tok;
	dt_type *ty = pointers(ctx, base);
	if (paren_star_follows(ctx)) {	/* int (*fp)(int); */
		dt_node w;
		__builtin_memset(&w, 0, sizeof(w));
		w.n_line = t.t_line;
		w.n_col = t.t_col;
		const char *name;
		ty = inner_declarator(ctx, ty, true, &name);
		if (is_typedef)
			dt_decl_typedef(ctx, &w, name, ty);
		else
			dt_decl_var(ctx, &w, scope, ty, name, NULL, 0, false);
		return false;
	}
	if (tok(ctx) == DT_T_SYM)
		dt_error_tok(ctx, "D_DECL_SCOPE", "D scoping operator may not "
		    "be used in a declaration name (`%s)", ctx->c_tok.t_str);
	const char *name = dt_ident_name(ctx);
	dt_node where;
	__builtin_memset(&where, 0, sizeof(where));
	where.n_line = t.t_line;
	where.n_col = t.t_col;
	if (tok(ctx) == DT_T_LPAR && is_typedef) {
		/* typedef int fn_t(int): a function type */
		dt_decl_typedef(ctx, &where, name, func_type(ctx, ty, name));
		return false;
	}
	if (tok(ctx) == DT_T_LPAR) {
		char pb[192];			/* a function's prototype */
		proto_params(ctx, name, pb, sizeof(pb));
		return true;
	}
	if (tok(ctx) == DT_T_LBRAC) {
		size_t sp = ctx->c_pos;
		uint32_t sl = ctx->c_line, sc = ctx->c_col;
		dt_tok st = ctx->c_tok, spv = ctx->c_prev;
		dt_next(ctx);
		if (tok(ctx) == DT_T_RBRAC)
			dt_error_tok(ctx, "D_DECL_ARRNULL", "array declaration "
			    "requires array dimension or tuple signature: %s",
			    name);
		if ((dt_starts_type(ctx) || is_storage_class(tok(ctx))) &&
		    !is_typedef) {
			dt_type *keys[DT_MAXKEYS];
			uint32_t nk = key_list(ctx, keys);
			dt_expect(ctx, DT_T_RBRAC);
			if (tok(ctx) == DT_T_LBRAC)
				dt_error_tok(ctx, "D_DECL_DYNOBJ", "cannot "
				    "declare array of associative arrays");
			dt_decl_var(ctx, &where, scope, ty, name, keys, nk,
			    true);
			return false;
		}
		ctx->c_pos = sp;
		ctx->c_line = sl;
		ctx->c_col = sc;
		ctx->c_tok = st;
		ctx->c_prev = spv;
		dt_type *dims[8];
		int nd = 0;
		if (ty->ty_kind == DT_TK_VOID)
			dt_error_tok(ctx, "D_DECL_VOIDOBJ", "cannot declare array "
			    "of void");
		while (tok(ctx) == DT_T_LBRAC) {
			dt_next(ctx);
			if (nd > 0 && dt_starts_type(ctx))
				dt_error_tok(ctx, "D_DECL_DYNOBJ", "cannot "
				    "declare array of associative arrays");
			dims[nd] = (dt_type *)(uintptr_t)array_dim(ctx, nd);
			nd++;
		}
		while (nd-- > 0)
			ty = dt_type_array(ctx, ty,
			    (uint32_t)(uintptr_t)dims[nd]);
	}
	if (is_typedef) {
		dt_decl_typedef(ctx, &where, name, ty);
		return false;
	}
	dt_decl_var(ctx, &where, scope, ty, name, NULL, 0, false);
	return false;
}

static _Noreturn void badclass(dt_ctx *ctx)
{
	dt_error_tok(ctx, "D_DECL_BADCLASS", "specified storage class not "
	    "appropriate in D");
}

static bool is_storage_class(dt_tokkind k)
{
	return (k == DT_T_SELF || k == DT_T_THIS || k == DT_T_TYPEDEF ||
	    k == DT_T_EXTERN || k == DT_T_STATIC || k == DT_T_AUTO ||
	    k == DT_T_REGISTER);
}

/*
 * storage-classes: { storage-class }, at most one (D_DECL_CLASS, as it is
 * read); *where is the last one's token.  In a declaration, not one of C's
 * that mean nothing in D (auto, register, and static but on a function's
 * prototype: D_DECL_BADCLASS); a parameter's is checked once its type is
 * read (param_class_check).  Returns it (DT_T_EOF: none).
 */
static dt_tokkind storage_classes(dt_ctx *ctx, dt_tok *where, bool in_declaration)
{
	dt_tokkind cls = DT_T_EOF;
	while (is_storage_class(tok(ctx))) {
		if (cls != DT_T_EOF)
			dt_error_tok(ctx, "D_DECL_CLASS", "only one storage "
			    "class allowed in a declaration");
		cls = tok(ctx);
		*where = ctx->c_tok;
		if (in_declaration && (cls == DT_T_AUTO || cls == DT_T_REGISTER))
			badclass(ctx);
		dt_next(ctx);
	}
	return cls;
}

static dt_tokkind storage_class(dt_ctx *ctx)
{
	dt_tok where;
	return storage_classes(ctx, &where, true);
}

/*
 * declaration: [ storage-class ] [ specifiers ]
 *              [ var-declarator { ',' var-declarator } ] ';'
 * With a storage class and no type ("self x;"), the type is int, as in C.
 * Without declarators, the specifiers must declare a struct, union or enum
 * tag; else the declaration is useless (D_DECL_USELESS).
 */
void dt_parse_declaration(dt_ctx *ctx)
{
	dt_tokkind cls = storage_class(ctx);
	int scope = cls == DT_T_SELF ? DIF_SCOPE_THREAD : cls == DT_T_THIS ?
	    DIF_SCOPE_LOCAL : DIF_SCOPE_GLOBAL;
	bool is_typedef = cls == DT_T_TYPEDEF;
	dt_tok first = ctx->c_tok;
	dt_type *base;
	if (dt_starts_type(ctx))
		base = decl_specifiers(ctx);
	else if (cls != DT_T_EOF && (tok(ctx) == DT_T_IDENT ||
	    tok(ctx) == DT_T_STAR))
		base = ctx->c_t_int;
	else
		dt_syntax_error(ctx);
	if (tok(ctx) != DT_T_SEMI) {
		do {
			if (cls == DT_T_STATIC && (tok(ctx) != DT_T_IDENT ||
			    dt_lex_peek_char(ctx) != '('))
				badclass(ctx);
			(void)var_declarator(ctx, scope, base, is_typedef);
		} while (dt_accept(ctx, DT_T_COMMA));
	} else if (first.t_kind == DT_T_TYPENAME || (base->ty_kind !=
	    DT_TK_STRUCT && base->ty_kind != DT_TK_UNION &&
	    base->ty_kind != DT_TK_ENUM)) {
		dt_error_at(ctx, first.t_line, first.t_col, "D_DECL_USELESS",
		    "useless declaration");
	}
	if (tok(ctx) != DT_T_SEMI)
		dt_syntax_error(ctx);
}

/*
 * inline: 'inline' type-name identifier [ '[' params ']' ] '=' expr ';'
 * params: type-name identifier { ',' type-name identifier }
 * (the library's fds[int fd]: used as fds[0], the body with fd bound)
 */
void dt_parse_inline(dt_ctx *ctx)
{
	dt_tok t = ctx->c_tok;
	dt_next(ctx);
	dt_type *ty = dt_parse_type(ctx);
	const char *name = dt_ident_name(ctx);
	dt_node *where = dt_node_new(ctx, DT_N_DECL, &t);
	dt_node *params = NULL, **tail = &params;
	if (dt_accept(ctx, DT_T_LBRAC)) {
		do {
			dt_node *p = dt_node_here(ctx, DT_N_DECL);
			p->n_ctype = dt_parse_type(ctx);
			p->n_str = dt_ident_name(ctx);
			*tail = p;
			tail = &p->n_next;
		} while (dt_accept(ctx, DT_T_COMMA));
		dt_expect(ctx, DT_T_RBRAC);
	}
	dt_expect(ctx, DT_T_ASGN);
	dt_node *e = dt_parse_expr(ctx);
	if (tok(ctx) != DT_T_SEMI)
		dt_syntax_error(ctx);
	dt_decl_inline(ctx, where, ty, name, e, params);
}

/*
 * translator: 'translator' type-name '<' type-name identifier '>'
 *             '{' { identifier '=' expr ';' } '}' ';'
 */
void dt_parse_translator(dt_ctx *ctx)
{
	dt_tok t = ctx->c_tok;
	dt_next(ctx);
	dt_type *out = dt_parse_type(ctx);
	dt_expect(ctx, DT_T_LT);
	dt_type *in = dt_parse_type(ctx);
	const char *arg = dt_ident_name(ctx);
	dt_expect(ctx, DT_T_GT);
	dt_expect(ctx, DT_T_LBRACE);
	dt_node *head = NULL, **tail = &head;
	while (!dt_accept(ctx, DT_T_RBRACE)) {
		dt_node *m = dt_node_here(ctx, DT_N_OP2);
		m->n_str = dt_ident_name(ctx);
		dt_expect(ctx, DT_T_ASGN);
		m->n_a = dt_parse_expr(ctx);
		dt_expect(ctx, DT_T_SEMI);
		*tail = m;
		tail = &m->n_next;
	}
	if (tok(ctx) != DT_T_SEMI)
		dt_syntax_error(ctx);
	dt_decl_xlator(ctx, dt_node_new(ctx, DT_N_DECL, &t), out, in, arg,
	    head);
}

