/*
 * dlang/dt_parse.c: the D parser (recursive descent).
 *
 * One function per grammar production; the rule is in the comment above
 * each.  The parser builds syntax trees for expressions and statements and
 * hands each finished program item straight on: a clause to the semantic
 * pass (dt_sema_clause, which also generates its code), a declaration to
 * the declaration helpers of dt_sema.c.  So only one clause's tree is alive
 * at a time, and the program object grows as parsing proceeds.
 *
 * Precedence, lowest first (C's, plus D's ^^ between || and &&):
 *   ,  =  ?:  ||  ^^  &&  |  ^  &  == !=  < <= > >=  << >>  + -  * / %
 *   casts and unary operators, postfix operators, primaries.
 *
 * Order: token helpers, primaries and postfix, unary and casts, binary
 * levels, assignment and comma, statements, declarations and types,
 * clauses, the program.
 */
#include "dlang/dt.h"

static dt_node *expr(dt_ctx *ctx);
static dt_node *assign_expr(dt_ctx *ctx);
static dt_node *cast_expr(dt_ctx *ctx);
static dt_type *type_name(dt_ctx *ctx);
static bool starts_type(dt_ctx *ctx);
static dt_node *cond_expr(dt_ctx *ctx);
static bool paren_type_follows(dt_ctx *ctx);

/* ---- token helpers ---- */

static dt_tokkind
tok(dt_ctx *ctx)
{
	return (ctx->c_tok.t_kind);
}

static void
next(dt_ctx *ctx)
{
	dt_lex_next(ctx, DT_LEX_EXPR);
}

static _Noreturn void
syntax_error(dt_ctx *ctx)
{
	char buf[64];
	if (tok(ctx) == DT_T_EOF)
		dt_error_tok(ctx, "D_SYNTAX", "syntax error near end of input");
	dt_tok_text(ctx, &ctx->c_tok, buf, sizeof (buf));
	dt_error_tok(ctx, "D_SYNTAX", "syntax error near \"%s\"", buf);
}

static bool
accept(dt_ctx *ctx, dt_tokkind k)
{
	if (tok(ctx) != k)
		return (false);
	next(ctx);
	return (true);
}

static void
expect(dt_ctx *ctx, dt_tokkind k)
{
	if (!accept(ctx, k))
		syntax_error(ctx);
}

static void
enter(dt_ctx *ctx)
{
	if (++ctx->c_depth > DT_MAXDEPTH)
		dt_error_tok(ctx, "D_SYNTAX", "expression nesting is too deep");
}

dt_node *
dt_node_new(dt_ctx *ctx, dt_nodekind k, const dt_tok *t)
{
	dt_node *n = dt_alloc(ctx, sizeof (*n));
	n->n_kind = k;
	n->n_line = t->t_line;
	n->n_col = t->t_col;
	n->n_reg = -1;
	return (n);
}

static dt_node *
node_here(dt_ctx *ctx, dt_nodekind k)
{
	return (dt_node_new(ctx, k, &ctx->c_tok));
}

static const char *
ident_name(dt_ctx *ctx)
{
	if (tok(ctx) != DT_T_IDENT && tok(ctx) != DT_T_TYPENAME)
		syntax_error(ctx);
	const char *s = ctx->c_tok.t_str;
	next(ctx);
	return (s);
}

/* ---- primaries and postfix ---- */

/* arg-list: assign-expr { ',' assign-expr } */
static dt_node *
arg_list(dt_ctx *ctx, dt_tokkind close, uint32_t *count)
{
	dt_node *head = NULL, **tail = &head;
	*count = 0;
	if (tok(ctx) == close)
		return (NULL);
	do {
		*tail = assign_expr(ctx);
		tail = &(*tail)->n_next;
		(*count)++;
	} while (accept(ctx, DT_T_COMMA));
	return (head);
}

/* constant: integer | character | string */
static dt_node *
constant(dt_ctx *ctx)
{
	dt_tok *t = &ctx->c_tok;
	dt_node *n;
	if (t->t_kind == DT_T_INT) {
		n = node_here(ctx, DT_N_INT);
		n->n_ival = (int64_t)t->t_ival;
		if (t->t_fromchar && t->t_isize == 1)
			n->n_type = ctx->c_t_char;
		else if (t->t_isize == 4)
			n->n_type = t->t_iunsigned ? ctx->c_t_uint : ctx->c_t_int;
		else
			n->n_type = t->t_iunsigned ? ctx->c_t_ulong :
			    ctx->c_t_long;
		n->n_flags |= DT_NF_CONST;
	} else {
		n = node_here(ctx, DT_N_STR);
		n->n_str = t->t_str;
		n->n_slen = t->t_slen;
		n->n_type = ctx->c_t_string;
	}
	next(ctx);
	return (n);
}

/* self-this: ( 'self' | 'this' ) '->' identifier */
static dt_node *
self_this(dt_ctx *ctx)
{
	dt_node *n = node_here(ctx, tok(ctx) == DT_T_SELF ? DT_N_SELF :
	    DT_N_THIS);
	next(ctx);
	if (!accept(ctx, DT_T_ARROW) && !accept(ctx, DT_T_DOT))
		syntax_error(ctx);
	n->n_str = ident_name(ctx);
	return (n);
}

/* xlate: 'xlate' '<' type-name '>' '(' expr ')' */
static dt_node *
xlate_expr(dt_ctx *ctx)
{
	dt_node *n = node_here(ctx, DT_N_XLATE);
	next(ctx);
	expect(ctx, DT_T_LT);
	n->n_ctype = type_name(ctx);
	expect(ctx, DT_T_GT);
	expect(ctx, DT_T_LPAR);
	n->n_a = expr(ctx);
	expect(ctx, DT_T_RPAR);
	return (n);
}

/* offsetof: 'offsetof' '(' type-name ',' identifier ')' */
static dt_node *
offsetof_expr(dt_ctx *ctx)
{
	dt_node *n = node_here(ctx, DT_N_OFFSETOF);
	next(ctx);
	expect(ctx, DT_T_LPAR);
	n->n_ctype = type_name(ctx);
	expect(ctx, DT_T_COMMA);
	n->n_str = ident_name(ctx);
	expect(ctx, DT_T_RPAR);
	return (n);
}

/*
 * primary: identifier | constant | string | '(' expr ')' | aggregation
 *        | '`' symbol | self-this | xlate | offsetof
 */
static dt_node *
primary(dt_ctx *ctx)
{
	dt_node *n;
	switch (tok(ctx)) {
	case DT_T_IDENT:
		n = node_here(ctx, DT_N_VAR);
		n->n_str = ctx->c_tok.t_str;
		next(ctx);
		return (n);
	case DT_T_INT:
	case DT_T_STR:
		return (constant(ctx));
	case DT_T_LPAR:
		next(ctx);
		n = expr(ctx);
		expect(ctx, DT_T_RPAR);
		return (n);
	case DT_T_AGG:
		n = node_here(ctx, DT_N_AGG);
		n->n_str = ctx->c_tok.t_str;
		next(ctx);
		return (n);
	case DT_T_SYM:
		n = node_here(ctx, DT_N_SYM);
		n->n_str = ctx->c_tok.t_str;
		next(ctx);
		return (n);
	case DT_T_SELF:
	case DT_T_THIS:
		return (self_this(ctx));
	case DT_T_XLATE:
		return (xlate_expr(ctx));
	case DT_T_OFFSETOF:
		return (offsetof_expr(ctx));
	default:
		syntax_error(ctx);
	}
}

/*
 * postfix: primary { '[' arg-list ']' | '(' [arg-list] ')'
 *        | '.' identifier | '->' identifier | '++' | '--' }
 */
static dt_node *
postfix(dt_ctx *ctx)
{
	dt_node *n = primary(ctx);
	for (;;) {
		dt_tok t = ctx->c_tok;
		dt_node *m;
		uint32_t cnt;
		if (accept(ctx, DT_T_LBRAC)) {
			if (n->n_kind == DT_N_AGG && n->n_args == NULL &&
			    n->n_a == NULL) {
				n->n_args = arg_list(ctx, DT_T_RBRAC, &cnt);
				n->n_a = n;	/* mark: has brackets */
				if (cnt == 0)
					syntax_error(ctx);
				expect(ctx, DT_T_RBRAC);
				continue;
			}
			m = dt_node_new(ctx, DT_N_INDEX, &t);
			m->n_a = n;
			m->n_args = arg_list(ctx, DT_T_RBRAC, &cnt);
			if (cnt == 0)
				syntax_error(ctx);
			expect(ctx, DT_T_RBRAC);
		} else if (accept(ctx, DT_T_LPAR)) {
			if (n->n_kind != DT_N_VAR)
				dt_error_node(ctx, n, "D_FUNC_IDENT",
				    "function designator is not of function "
				    "type");
			m = dt_node_new(ctx, DT_N_CALL, &t);
			m->n_str = n->n_str;
			m->n_line = n->n_line;
			m->n_col = n->n_col;
			m->n_args = arg_list(ctx, DT_T_RPAR, &cnt);
			m->n_ival = cnt;
			expect(ctx, DT_T_RPAR);
		} else if (tok(ctx) == DT_T_DOT || tok(ctx) == DT_T_ARROW) {
			m = dt_node_new(ctx, DT_N_MEMBER, &t);
			m->n_op = tok(ctx);
			next(ctx);
			m->n_a = n;
			m->n_str = ident_name(ctx);
		} else if (tok(ctx) == DT_T_INC || tok(ctx) == DT_T_DEC) {
			m = dt_node_new(ctx, DT_N_OP1, &t);
			m->n_op = tok(ctx);
			m->n_post = true;
			m->n_a = n;
			next(ctx);
		} else {
			return (n);
		}
		n = m;
	}
}

/* ---- unary and casts ---- */

/*
 * unary: postfix | ('++'|'--') unary | ('&'|'*'|'+'|'-'|'~'|'!') cast
 *      | 'sizeof' unary | 'sizeof' '(' type-name ')' | 'stringof' unary
 */
static dt_node *
unary(dt_ctx *ctx)
{
	dt_tok t = ctx->c_tok;
	dt_node *n;
	enter(ctx);
	switch (t.t_kind) {
	case DT_T_INC: case DT_T_DEC:
		next(ctx);
		n = dt_node_new(ctx, DT_N_OP1, &t);
		n->n_op = t.t_kind;
		n->n_a = unary(ctx);
		break;
	case DT_T_BAND: case DT_T_STAR: case DT_T_PLUS: case DT_T_MINUS:
	case DT_T_BNEG: case DT_T_LNEG:
		next(ctx);
		n = dt_node_new(ctx, DT_N_OP1, &t);
		n->n_op = t.t_kind;
		n->n_a = cast_expr(ctx);
		break;
	case DT_T_SIZEOF:
		next(ctx);
		n = dt_node_new(ctx, DT_N_SIZEOF, &t);
		if (tok(ctx) == DT_T_LPAR && paren_type_follows(ctx)) {
			next(ctx);
			n->n_ctype = type_name(ctx);
			expect(ctx, DT_T_RPAR);
			break;
		}
		n->n_a = unary(ctx);
		break;
	case DT_T_STRINGOF:
		next(ctx);
		n = dt_node_new(ctx, DT_N_STRINGOF, &t);
		n->n_a = unary(ctx);
		break;
	default:
		n = postfix(ctx);
		break;
	}
	ctx->c_depth--;
	return (n);
}

/*
 * With '(' as the current token: is the next token the start of a type
 * name?  Peeks one token and puts the lexer back (in its own frame, so the
 * recursive callers stay small).
 */
static DT_NOINLINE bool
paren_type_follows(dt_ctx *ctx)
{
	size_t pos = ctx->c_pos;
	uint32_t line = ctx->c_line, col = ctx->c_col;
	dt_tok cur = ctx->c_tok, prev = ctx->c_prev;
	next(ctx);
	bool r = starts_type(ctx);
	ctx->c_pos = pos;
	ctx->c_line = line;
	ctx->c_col = col;
	ctx->c_tok = cur;
	ctx->c_prev = prev;
	return (r);
}

/* cast: unary | '(' type-name ')' cast */
static dt_node *
cast_expr(dt_ctx *ctx)
{
	if (tok(ctx) != DT_T_LPAR || !paren_type_follows(ctx))
		return (unary(ctx));
	dt_node *n = node_here(ctx, DT_N_CAST);
	next(ctx);
	n->n_ctype = type_name(ctx);
	expect(ctx, DT_T_RPAR);
	enter(ctx);
	n->n_a = cast_expr(ctx);
	ctx->c_depth--;
	return (n);
}

/* ---- binary levels ---- */

/* Binary operator precedence (higher binds tighter); 0: not binary. */
static int
binprec(dt_tokkind k)
{
	switch (k) {
	case DT_T_LOR: return (1);
	case DT_T_LXOR: return (2);
	case DT_T_LAND: return (3);
	case DT_T_BOR: return (4);
	case DT_T_XOR: return (5);
	case DT_T_BAND: return (6);
	case DT_T_EQ: case DT_T_NE: return (7);
	case DT_T_LT: case DT_T_LE: case DT_T_GT: case DT_T_GE: return (8);
	case DT_T_LSH: case DT_T_RSH: return (9);
	case DT_T_PLUS: case DT_T_MINUS: return (10);
	case DT_T_STAR: case DT_T_SLASH: case DT_T_MOD: return (11);
	default: return (0);
	}
}

/*
 * binary(p): cast { op(q >= p) binary(q + 1) }   -- precedence climbing
 * over: logical-or, logical-xor, logical-and, inclusive-or, exclusive-or,
 * and, equality, relational, shift, additive, multiplicative.  All are
 * left-associative.
 */
static dt_node *
binary(dt_ctx *ctx, int minprec)
{
	dt_node *lhs = cast_expr(ctx);
	for (;;) {
		int p = binprec(tok(ctx));
		if (p == 0 || p < minprec)
			return (lhs);
		if (tok(ctx) == DT_T_SLASH && ctx->c_inpred &&
		    dt_lex_peek_char(ctx) == '{')
			return (lhs);
		dt_node *n = node_here(ctx, DT_N_OP2);
		n->n_op = tok(ctx);
		next(ctx);
		enter(ctx);
		n->n_a = lhs;
		n->n_b = binary(ctx, p + 1);
		ctx->c_depth--;
		lhs = n;
	}
}

/* conditional: logical-or [ '?' expr ':' conditional ] */
static dt_node *
cond_expr(dt_ctx *ctx)
{
	dt_node *c = binary(ctx, 1);
	if (tok(ctx) != DT_T_QUESTION)
		return (c);
	dt_node *n = node_here(ctx, DT_N_OP3);
	next(ctx);
	enter(ctx);
	n->n_a = c;
	n->n_b = expr(ctx);
	expect(ctx, DT_T_COLON);
	n->n_c = cond_expr(ctx);
	ctx->c_depth--;
	return (n);
}

static bool
is_assign_op(dt_tokkind k)
{
	return (k == DT_T_ASGN || (k >= DT_T_ADD_EQ && k <= DT_T_RSH_EQ));
}

/* assignment: conditional | unary assign-op assignment */
static dt_node *
assign_expr(dt_ctx *ctx)
{
	dt_node *lhs = cond_expr(ctx);
	if (!is_assign_op(tok(ctx)))
		return (lhs);
	dt_node *n = node_here(ctx, DT_N_OP2);
	n->n_op = tok(ctx);
	next(ctx);
	enter(ctx);
	n->n_a = lhs;
	n->n_b = assign_expr(ctx);
	ctx->c_depth--;
	return (n);
}

/* expr: assignment { ',' assignment } */
static dt_node *
expr(dt_ctx *ctx)
{
	dt_node *n = assign_expr(ctx);
	while (tok(ctx) == DT_T_COMMA) {
		dt_node *c = node_here(ctx, DT_N_OP2);
		c->n_op = DT_T_COMMA;
		next(ctx);
		c->n_a = n;
		c->n_b = assign_expr(ctx);
		n = c;
	}
	return (n);
}

/* ---- statements ---- */

static dt_node *statement(dt_ctx *ctx);

/* statement-list: { statement }   (the last ';' before '}' is optional) */
static dt_node *
statement_list(dt_ctx *ctx)
{
	dt_node *head = NULL, **tail = &head;
	while (tok(ctx) != DT_T_RBRACE) {
		dt_node *s = statement(ctx);
		if (s != NULL) {
			*tail = s;
			tail = &s->n_next;
		}
	}
	return (head);
}

/*
 * statement: ';' | expr ';' | expr '}' (last) | '{' statement-list '}'
 *          | 'if' '(' expr ')' statement [ 'else' statement ]
 */
static dt_node *
statement(dt_ctx *ctx)
{
	dt_node *n;
	enter(ctx);
	if (accept(ctx, DT_T_SEMI)) {
		n = NULL;
	} else if (tok(ctx) == DT_T_LBRACE) {
		n = node_here(ctx, DT_N_BLOCK);
		next(ctx);
		n->n_args = statement_list(ctx);
		expect(ctx, DT_T_RBRACE);
	} else if (tok(ctx) == DT_T_IF) {
		n = node_here(ctx, DT_N_IF);
		next(ctx);
		expect(ctx, DT_T_LPAR);
		n->n_a = expr(ctx);
		expect(ctx, DT_T_RPAR);
		n->n_b = statement(ctx);
		if (accept(ctx, DT_T_ELSE))
			n->n_c = statement(ctx);
	} else {
		n = node_here(ctx, DT_N_EXPRSTMT);
		n->n_a = expr(ctx);
		if (tok(ctx) != DT_T_RBRACE)
			expect(ctx, DT_T_SEMI);
	}
	ctx->c_depth--;
	return (n);
}

/* ---- declarations and types ---- */

static bool
starts_type(dt_ctx *ctx)
{
	switch (tok(ctx)) {
	case DT_T_CHAR: case DT_T_SHORT: case DT_T_INT_KW: case DT_T_LONG:
	case DT_T_SIGNED: case DT_T_UNSIGNED: case DT_T_VOID:
	case DT_T_STRING: case DT_T_STRUCT: case DT_T_UNION: case DT_T_ENUM:
	case DT_T_CONST: case DT_T_VOLATILE: case DT_T_TYPENAME:
	case DT_T_USERLAND: case DT_T_RESTRICT: case DT_T_FLOAT:
	case DT_T_DOUBLE:
		return (true);
	default:
		return (false);
	}
}

static int64_t
const_expr(dt_ctx *ctx)
{
	dt_node *n = cond_expr(ctx);
	return (dt_sema_const(ctx, n));
}

static dt_type *decl_specifiers(dt_ctx *ctx);
static const char *declarator(dt_ctx *ctx, dt_type **tp);

/* sou-body: '{' { specifiers declarator { ',' declarator } ';' } '}' */
static void
sou_body(dt_ctx *ctx, dt_type *sou)
{
	expect(ctx, DT_T_LBRACE);
	while (!accept(ctx, DT_T_RBRACE)) {
		dt_type *base = decl_specifiers(ctx);
		do {
			dt_node *where = node_here(ctx, DT_N_DECL);
			dt_type *mt = base;
			const char *name = declarator(ctx, &mt);
			if (accept(ctx, DT_T_COLON))
				dt_error_tok(ctx, "D_DECL_BFTYPE", "bit-fields "
				    "are not supported by Sonde");
			dt_sou_member(ctx, where, sou, name, mt);
		} while (accept(ctx, DT_T_COMMA));
		expect(ctx, DT_T_SEMI);
	}
	dt_sou_end(ctx, sou);
}

/*
 * enum-body: '{' enumerator { ',' enumerator } [','] '}'
 * enumerator: identifier [ '=' constant-expr ]
 */
static void
enum_body(dt_ctx *ctx, dt_type *en)
{
	int64_t v = 0;
	expect(ctx, DT_T_LBRACE);
	do {
		if (tok(ctx) == DT_T_RBRACE)
			break;
		dt_node *where = node_here(ctx, DT_N_DECL);
		const char *name = ident_name(ctx);
		if (accept(ctx, DT_T_ASGN))
			v = const_expr(ctx);
		dt_enum_member(ctx, where, en, name, v);
		v++;
	} while (accept(ctx, DT_T_COMMA));
	expect(ctx, DT_T_RBRACE);
	dt_sou_end(ctx, en);
}

/*
 * tagged-type: ('struct'|'union'|'enum') identifier
 *            | ('struct'|'union') [identifier] sou-body
 *            | 'enum' [identifier] enum-body
 */
static dt_type *
tagged_type(dt_ctx *ctx)
{
	dt_tokkind kw = tok(ctx);
	dt_node *where = node_here(ctx, DT_N_DECL);
	next(ctx);
	const char *tag = NULL;
	if (tok(ctx) == DT_T_IDENT || tok(ctx) == DT_T_TYPENAME)
		tag = ident_name(ctx);
	bool body = tok(ctx) == DT_T_LBRACE;
	if (tag == NULL && !body)
		syntax_error(ctx);
	dt_type *t = dt_type_tagged(ctx, where, kw, tag, body);
	if (body && kw == DT_T_ENUM)
		enum_body(ctx, t);
	else if (body)
		sou_body(ctx, t);
	return (t);
}

/* Count-based C type specifier combination. */
typedef struct spec_counts {
	int sc_char, sc_short, sc_int, sc_long, sc_signed, sc_unsigned;
	int sc_void, sc_string, sc_float;
	dt_type *sc_named;
} spec_counts;

static dt_type *
spec_resolve(dt_ctx *ctx, const spec_counts *s, const dt_tok *t)
{
	int basic = s->sc_char + s->sc_short + s->sc_int + s->sc_long +
	    s->sc_signed + s->sc_unsigned + s->sc_void + s->sc_string +
	    s->sc_float;
	if (s->sc_named != NULL) {
		if (basic != 0)
			dt_error_at(ctx, t->t_line, t->t_col, "D_DECL_COMBO",
			    "invalid type combination");
		return (s->sc_named);
	}
	if (s->sc_float)
		dt_error_at(ctx, t->t_line, t->t_col, "D_DECL_COMBO",
		    "floating-point types are not supported");
	if ((s->sc_signed && s->sc_unsigned) || s->sc_signed > 1 ||
	    s->sc_unsigned > 1 || s->sc_short > 1 || s->sc_long > 2 ||
	    s->sc_char > 1 || s->sc_int > 1 ||
	    (s->sc_short && (s->sc_long || s->sc_char)) ||
	    (s->sc_char && (s->sc_long)) ||
	    ((s->sc_void || s->sc_string) && basic > 1))
		dt_error_at(ctx, t->t_line, t->t_col, "D_DECL_COMBO",
		    "invalid type combination");
	if (s->sc_void)
		return (ctx->c_t_void);
	if (s->sc_string)
		return (ctx->c_t_string);
	if (basic == 0)
		dt_error_at(ctx, t->t_line, t->t_col, "D_DECL_TYPENAME",
		    "type specifier expected");
	bool sign = !s->sc_unsigned;
	uint32_t size = s->sc_char ? 1 : s->sc_short ? 2 : s->sc_long ? 8 : 4;
	if (s->sc_char && !s->sc_signed && !s->sc_unsigned)
		return (ctx->c_t_char);
	if (s->sc_long == 2)
		return (sign ? ctx->c_t_llong : ctx->c_t_ullong);
	return (dt_type_int(ctx, size, sign));
}

/*
 * specifiers: { 'const' | 'volatile' | 'restrict' | 'userland' | 'signed'
 *             | 'unsigned' | 'char' | 'short' | 'int' | 'long' | 'void'
 *             | 'string' | typedef-name | sou-specifier | enum-specifier }
 */
static dt_type *
decl_specifiers(dt_ctx *ctx)
{
	spec_counts s;
	__builtin_memset(&s, 0, sizeof (s));
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
		case DT_T_FLOAT: case DT_T_DOUBLE: s.sc_float++; break;
		case DT_T_TYPENAME:
			if (s.sc_named != NULL || s.sc_char + s.sc_short +
			    s.sc_int + s.sc_long + s.sc_signed +
			    s.sc_unsigned + s.sc_void + s.sc_string != 0)
				return (spec_resolve(ctx, &s, &first));
			s.sc_named = dt_type_lookup(ctx, ctx->c_tok.t_str);
			break;
		case DT_T_STRUCT: case DT_T_UNION: case DT_T_ENUM:
			if (s.sc_named != NULL)
				dt_error_tok(ctx, "D_DECL_COMBO",
				    "invalid type combination");
			s.sc_named = tagged_type(ctx);
			continue;
		default:
			return (spec_resolve(ctx, &s, &first));
		}
		next(ctx);
	}
}

/* pointer: { '*' { 'const' | 'volatile' | 'restrict' } } */
static dt_type *
pointers(dt_ctx *ctx, dt_type *t)
{
	while (accept(ctx, DT_T_STAR)) {
		t = dt_type_ptr(ctx, t);
		while (accept(ctx, DT_T_CONST) || accept(ctx, DT_T_VOLATILE) ||
		    accept(ctx, DT_T_RESTRICT))
			;
	}
	return (t);
}

/*
 * declarator: pointer identifier { '[' constant-expr ']' }
 * (associative array keys are handled by var-declaration)
 */
static const char *
declarator(dt_ctx *ctx, dt_type **tp)
{
	*tp = pointers(ctx, *tp);
	const char *name = ident_name(ctx);
	dt_type *dims[8];
	int nd = 0;
	while (tok(ctx) == DT_T_LBRAC && nd < 8) {
		next(ctx);
		dt_tok t = ctx->c_tok;
		int64_t v = const_expr(ctx);
		if (v <= 0 || v > 0x100000)
			dt_error_at(ctx, t.t_line, t.t_col, "D_DECL_ARRDIM",
			    "array dimension must be a positive integer "
			    "constant");
		expect(ctx, DT_T_RBRAC);
		dims[nd++] = (dt_type *)(uintptr_t)v;
	}
	while (nd-- > 0)
		*tp = dt_type_array(ctx, *tp, (uint32_t)(uintptr_t)dims[nd]);
	return (name);
}

/* type-name: specifiers pointer */
static dt_type *
type_name(dt_ctx *ctx)
{
	dt_type *t = decl_specifiers(ctx);
	return (pointers(ctx, t));
}

/* key-list: type-name { ',' type-name }  (associative array keys) */
static uint32_t
key_list(dt_ctx *ctx, dt_type **keys)
{
	uint32_t n = 0;
	do {
		if (n == DT_MAXKEYS)
			dt_error_tok(ctx, "D_DECL_ARRDIM",
			    "too many associative array keys");
		keys[n++] = type_name(ctx);
	} while (accept(ctx, DT_T_COMMA));
	return (n);
}

/*
 * var-declarator: pointer identifier [ '[' key-list ']' | { '[' const ']' } ]
 */
static void
var_declarator(dt_ctx *ctx, int scope, dt_type *base, bool is_typedef)
{
	dt_tok t = ctx->c_tok;
	dt_type *ty = pointers(ctx, base);
	const char *name = ident_name(ctx);
	dt_node where;
	__builtin_memset(&where, 0, sizeof (where));
	where.n_line = t.t_line;
	where.n_col = t.t_col;
	if (tok(ctx) == DT_T_LBRAC) {
		size_t sp = ctx->c_pos;
		uint32_t sl = ctx->c_line, sc = ctx->c_col;
		dt_tok st = ctx->c_tok, spv = ctx->c_prev;
		next(ctx);
		if (starts_type(ctx) && !is_typedef) {
			dt_type *keys[DT_MAXKEYS];
			uint32_t nk = key_list(ctx, keys);
			expect(ctx, DT_T_RBRAC);
			dt_decl_var(ctx, &where, scope, ty, name, keys, nk,
			    true);
			return;
		}
		ctx->c_pos = sp;
		ctx->c_line = sl;
		ctx->c_col = sc;
		ctx->c_tok = st;
		ctx->c_prev = spv;
		dt_type *dims[8];
		int nd = 0;
		while (tok(ctx) == DT_T_LBRAC) {
			next(ctx);
			dt_tok dt = ctx->c_tok;
			int64_t v = const_expr(ctx);
			if (v <= 0 || v > 0x100000 || nd == 8)
				dt_error_at(ctx, dt.t_line, dt.t_col,
				    "D_DECL_ARRDIM", "array dimension must "
				    "be a positive integer constant");
			expect(ctx, DT_T_RBRAC);
			dims[nd++] = (dt_type *)(uintptr_t)v;
		}
		while (nd-- > 0)
			ty = dt_type_array(ctx, ty,
			    (uint32_t)(uintptr_t)dims[nd]);
	}
	if (is_typedef) {
		dt_decl_typedef(ctx, &where, name, ty);
		return;
	}
	dt_decl_var(ctx, &where, scope, ty, name, NULL, 0, false);
}

/*
 * declaration: [ 'self' | 'this' | 'extern' | 'static' | 'typedef' ]
 *              specifiers [ var-declarator { ',' var-declarator } ] ';'
 */
static void
declaration(dt_ctx *ctx)
{
	int scope = DIF_SCOPE_GLOBAL;
	bool is_typedef = false;
	dt_tok first = ctx->c_tok;
	if (accept(ctx, DT_T_SELF))
		scope = DIF_SCOPE_THREAD;
	else if (accept(ctx, DT_T_THIS))
		scope = DIF_SCOPE_LOCAL;
	else if (accept(ctx, DT_T_TYPEDEF))
		is_typedef = true;
	else
		(void)(accept(ctx, DT_T_EXTERN) || accept(ctx, DT_T_STATIC));
	if (tok(ctx) == DT_T_AUTO || tok(ctx) == DT_T_REGISTER)
		dt_error_tok(ctx, "D_DECL_CLASS", "auto and register storage "
		    "classes may not be used in D");
	if (!starts_type(ctx))
		syntax_error(ctx);
	dt_type *base = decl_specifiers(ctx);
	if (tok(ctx) != DT_T_SEMI) {
		do {
			var_declarator(ctx, scope, base, is_typedef);
		} while (accept(ctx, DT_T_COMMA));
	} else if (scope != DIF_SCOPE_GLOBAL || is_typedef) {
		(void)first;
		syntax_error(ctx);
	}
	if (tok(ctx) != DT_T_SEMI)
		syntax_error(ctx);
}

/* inline: 'inline' type-name identifier '=' expr ';' */
static void
inline_decl(dt_ctx *ctx)
{
	dt_tok t = ctx->c_tok;
	next(ctx);
	dt_type *ty = type_name(ctx);
	const char *name = ident_name(ctx);
	dt_node *where = dt_node_new(ctx, DT_N_DECL, &t);
	expect(ctx, DT_T_ASGN);
	dt_node *e = expr(ctx);
	if (tok(ctx) != DT_T_SEMI)
		syntax_error(ctx);
	dt_decl_inline(ctx, where, ty, name, e);
}

/*
 * translator: 'translator' type-name '<' type-name identifier '>'
 *             '{' { identifier '=' expr ';' } '}' ';'
 */
static void
translator_decl(dt_ctx *ctx)
{
	dt_tok t = ctx->c_tok;
	next(ctx);
	dt_type *out = type_name(ctx);
	expect(ctx, DT_T_LT);
	dt_type *in = type_name(ctx);
	const char *arg = ident_name(ctx);
	expect(ctx, DT_T_GT);
	expect(ctx, DT_T_LBRACE);
	dt_node *head = NULL, **tail = &head;
	while (!accept(ctx, DT_T_RBRACE)) {
		dt_node *m = node_here(ctx, DT_N_OP2);
		m->n_str = ident_name(ctx);
		expect(ctx, DT_T_ASGN);
		m->n_a = expr(ctx);
		expect(ctx, DT_T_SEMI);
		*tail = m;
		tail = &m->n_next;
	}
	if (tok(ctx) != DT_T_SEMI)
		syntax_error(ctx);
	dt_decl_xlator(ctx, dt_node_new(ctx, DT_N_DECL, &t), out, in, arg,
	    head);
}

/* ---- clauses and the program ---- */

/* pdesc-list: pdesc { ',' pdesc } */
static dt_node *
pdesc_list(dt_ctx *ctx)
{
	dt_node *head = NULL, **tail = &head;
	for (;;) {
		if (tok(ctx) != DT_T_PDESC)
			syntax_error(ctx);
		dt_node *p = node_here(ctx, DT_N_PDESC);
		p->n_str = ctx->c_tok.t_str;
		*tail = p;
		tail = &p->n_next;
		/* the character after a pdesc decides: ',' '/' '{' */
		next(ctx);
		if (tok(ctx) != DT_T_COMMA)
			return (head);
		dt_lex_next(ctx, DT_LEX_PDESC);
	}
}

/*
 * clause: pdesc-list [ '/' expr '/' ] '{' statement-list '}'
 *       | pdesc-list             (at end of input or of its line: no body)
 */
static void
clause(dt_ctx *ctx)
{
	dt_node *c = node_here(ctx, DT_N_CLAUSE);
	c->n_args = pdesc_list(ctx);
	if (accept(ctx, DT_T_SLASH)) {
		/* the predicate ends at a '/' followed by '{' */
		ctx->c_inpred = true;
		c->n_a = expr(ctx);
		ctx->c_inpred = false;
		expect(ctx, DT_T_SLASH);
		if (tok(ctx) != DT_T_LBRACE)
			syntax_error(ctx);
	}
	if (tok(ctx) == DT_T_LBRACE) {
		next(ctx);
		c->n_b = statement_list(ctx);
		if (tok(ctx) != DT_T_RBRACE)
			syntax_error(ctx);
	} else if (c->n_a == NULL && tok(ctx) != DT_T_EOF &&
	    ctx->c_tok.t_line > ctx->c_prev.t_line) {
		/*
		 * A description alone on its line (dtrace -n BEGIN -n END):
		 * a clause without a body.  Give the token back so the next
		 * item is lexed from its start.
		 */
		ctx->c_pos = ctx->c_tok.t_off;
		ctx->c_line = ctx->c_tok.t_line;
		ctx->c_col = ctx->c_tok.t_col;
	} else if (tok(ctx) != DT_T_EOF) {
		syntax_error(ctx);
	}
	dt_sema_clause(ctx, c);
}

/* item: clause | declaration ';' | inline ';' | translator ';' | ';' */
static void
item(dt_ctx *ctx)
{
	switch (tok(ctx)) {
	case DT_T_PDESC:
		clause(ctx);
		break;
	case DT_T_INLINE:
		inline_decl(ctx);
		break;
	case DT_T_TRANSLATOR:
		translator_decl(ctx);
		break;
	case DT_T_PROVIDER: case DT_T_PROBE: case DT_T_IMPORT:
		dt_error_tok(ctx, "D_SYNTAX", "provider definitions are not "
		    "supported by Sonde");
	case DT_T_SEMI:
		break;
	default:
		declaration(ctx);
		break;
	}
}

/* program: { item } EOF */
void
dt_parse_program(dt_ctx *ctx)
{
	dt_lex_next(ctx, DT_LEX_TOP);
	if (tok(ctx) == DT_T_EOF)
		dt_error_at(ctx, ctx->c_line, ctx->c_col, "D_EMPTY",
		    "program does not contain any probe descriptions");
	while (tok(ctx) != DT_T_EOF) {
		item(ctx);
		dt_lex_next(ctx, DT_LEX_TOP);
	}
}
