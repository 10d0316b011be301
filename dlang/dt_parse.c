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
 * levels, assignment and comma, statements, clauses, the program.  The
 * declaration productions (type names, struct/union/enum, declarators,
 * inline, translator) are in dt_parse_decl.c.
 *
 * Tests: tests/d/err.D_SYNTAX.*.d; tests/unit/dlang_compile_test.c; make
 *        dlang-fuzz
 */
#include "dlang/dt.h"

static dt_node *assign_expr(dt_ctx *ctx);
static dt_node *cast_expr(dt_ctx *ctx);
static bool paren_type_follows(dt_ctx *ctx);

/* ---- token helpers ---- */

/* The current token's kind. */
static dt_tokkind tok(dt_ctx *ctx)
{
	return ctx->c_tok.t_kind;
}

/* Advance to the next ordinary token. */
void dt_next(dt_ctx *ctx)
{
	dt_lex_next(ctx, DT_LEX_EXPR);
}

/* D_SYNTAX at the current token: "syntax error near \"tok\"". */
_Noreturn void dt_syntax_error(dt_ctx *ctx)
{
	char buf[64];
	if (tok(ctx) == DT_T_EOF)
		dt_error_tok(ctx, "D_SYNTAX", "syntax error near end of input");
	dt_tok_text(ctx, &ctx->c_tok, buf, sizeof(buf));
	dt_error_tok(ctx, "D_SYNTAX", "syntax error near \"%s\"", buf);
}

/* Consume the current token if it is k. */
bool dt_accept(dt_ctx *ctx, dt_tokkind k)
{
	if (tok(ctx) != k)
		return false;
	dt_next(ctx);
	return true;
}

/* Consume a k or fail with D_SYNTAX. */
void dt_expect(dt_ctx *ctx, dt_tokkind k)
{
	if (!dt_accept(ctx, k))
		dt_syntax_error(ctx);
}

/* One level deeper; the nesting limit bounds the stack (DT_MAXDEPTH). */
static void enter(dt_ctx *ctx)
{
	if (++ctx->c_depth > DT_MAXDEPTH)
		dt_error_tok(ctx, "D_SYNTAX", "expression nesting is too deep (the limit is %d levels; "
		    "each operator, parenthesis and statement is one)", DT_MAXDEPTH);
}

/* A new node of kind k at token t's position. */
dt_node *dt_node_new(dt_ctx *ctx, dt_nodekind k, const dt_tok *t)
{
	dt_node *n = dt_alloc(ctx, sizeof(*n));
	n->n_kind = k;
	n->n_line = t->t_line;
	n->n_col = t->t_col;
	n->n_reg = -1;
	return n;
}

/* A new node of kind k at the current token. */
dt_node *dt_node_here(dt_ctx *ctx, dt_nodekind k)
{
	return dt_node_new(ctx, k, &ctx->c_tok);
}

/* Consume an identifier (or typedef name) and return its text. */
const char *dt_ident_name(dt_ctx *ctx)
{
	if (tok(ctx) != DT_T_IDENT && tok(ctx) != DT_T_TYPENAME)
		dt_syntax_error(ctx);
	const char *s = ctx->c_tok.t_str;
	dt_next(ctx);
	return s;
}

/* ---- primaries and postfix ---- */

/* arg-list: assign-expr { ',' assign-expr } */
static dt_node *arg_list(dt_ctx *ctx, dt_tokkind close, uint32_t *count)
{
	dt_node *head = NULL, **tail = &head;
	*count = 0;
	if (tok(ctx) == close)
		return NULL;
	do {
		*tail = assign_expr(ctx);
		tail = &(*tail)->n_next;
		(*count)++;
	} while (dt_accept(ctx, DT_T_COMMA));
	return head;
}

/* constant: integer | character | string */
static dt_node *constant(dt_ctx *ctx)
{
	dt_tok *t = &ctx->c_tok;
	dt_node *n;
	if (t->t_kind == DT_T_INT) {
		n = dt_node_here(ctx, DT_N_INT);
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
		n = dt_node_here(ctx, DT_N_STR);
		n->n_str = t->t_str;
		n->n_slen = t->t_slen;
		n->n_type = ctx->c_t_string;
	}
	dt_next(ctx);
	return n;
}

/* self-this: ( 'self' | 'this' ) '->' identifier */
static dt_node *self_this(dt_ctx *ctx)
{
	dt_node *n = dt_node_here(ctx, tok(ctx) == DT_T_SELF ? DT_N_SELF :
	    DT_N_THIS);
	dt_next(ctx);
	if (!dt_accept(ctx, DT_T_ARROW) && !dt_accept(ctx, DT_T_DOT))
		dt_syntax_error(ctx);
	n->n_str = dt_ident_name(ctx);
	return n;
}

/* xlate: 'xlate' '<' type-name '>' '(' expr ')' */
static dt_node *xlate_expr(dt_ctx *ctx)
{
	dt_node *n = dt_node_here(ctx, DT_N_XLATE);
	dt_next(ctx);
	dt_expect(ctx, DT_T_LT);
	n->n_ctype = dt_parse_type(ctx);
	dt_expect(ctx, DT_T_GT);
	dt_expect(ctx, DT_T_LPAR);
	n->n_a = dt_parse_expr(ctx);
	dt_expect(ctx, DT_T_RPAR);
	return n;
}

/* offsetof: 'offsetof' '(' type-name ',' identifier ')' */
static dt_node *offsetof_expr(dt_ctx *ctx)
{
	dt_node *n = dt_node_here(ctx, DT_N_OFFSETOF);
	dt_next(ctx);
	dt_expect(ctx, DT_T_LPAR);
	n->n_ctype = dt_parse_type(ctx);
	dt_expect(ctx, DT_T_COMMA);
	n->n_str = dt_ident_name(ctx);
	dt_expect(ctx, DT_T_RPAR);
	return n;
}

/*
 * primary: identifier | constant | string | '(' expr ')' | aggregation
 *        | '`' symbol | self-this | xlate | offsetof
 */
static dt_node *primary(dt_ctx *ctx)
{
	dt_node *n;
	switch (tok(ctx)) {
	case DT_T_IDENT:
		n = dt_node_here(ctx, DT_N_VAR);
		n->n_str = ctx->c_tok.t_str;
		dt_next(ctx);
		return n;
	case DT_T_INT:
	case DT_T_STR:
		return constant(ctx);
	case DT_T_LPAR:
		dt_next(ctx);
		n = dt_parse_expr(ctx);
		dt_expect(ctx, DT_T_RPAR);
		return n;
	case DT_T_AGG:
		n = dt_node_here(ctx, DT_N_AGG);
		n->n_str = ctx->c_tok.t_str;
		dt_next(ctx);
		return n;
	case DT_T_SYM:
		n = dt_node_here(ctx, DT_N_SYM);
		n->n_str = ctx->c_tok.t_str;
		dt_next(ctx);
		return n;
	case DT_T_SELF:
	case DT_T_THIS:
		return self_this(ctx);
	case DT_T_XLATE:
		return xlate_expr(ctx);
	case DT_T_OFFSETOF:
		return offsetof_expr(ctx);
	default:
		dt_syntax_error(ctx);
	}
}

/*
 * postfix: primary { '[' arg-list ']' | '(' [arg-list] ')'
 *        | '.' identifier | '->' identifier | '++' | '--' }
 */
static dt_node *postfix(dt_ctx *ctx)
{
	dt_node *n = primary(ctx);
	for (;;) {
		dt_tok t = ctx->c_tok;
		dt_node *m;
		uint32_t cnt;
		if (dt_accept(ctx, DT_T_LBRAC)) {
			if (n->n_kind == DT_N_AGG && n->n_args == NULL &&
			    n->n_a == NULL) {
				n->n_args = arg_list(ctx, DT_T_RBRAC, &cnt);
				n->n_a = n;	/* mark: has brackets */
				if (cnt == 0)
					dt_syntax_error(ctx);
				dt_expect(ctx, DT_T_RBRAC);
				continue;
			}
			if (n->n_kind == DT_N_AGG)
				dt_error_node(ctx, n, "D_AGG_MDIM", "improper "
				    "attempt to reference @%s as a "
				    "multi-dimensional array", n->n_str);
			m = dt_node_new(ctx, DT_N_INDEX, &t);
			m->n_a = n;
			m->n_args = arg_list(ctx, DT_T_RBRAC, &cnt);
			if (cnt == 0)
				dt_syntax_error(ctx);
			dt_expect(ctx, DT_T_RBRAC);
		} else if (dt_accept(ctx, DT_T_LPAR)) {
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
			dt_expect(ctx, DT_T_RPAR);
		} else if (tok(ctx) == DT_T_DOT || tok(ctx) == DT_T_ARROW) {
			m = dt_node_new(ctx, DT_N_MEMBER, &t);
			m->n_op = tok(ctx);
			dt_next(ctx);
			m->n_a = n;
			m->n_str = dt_ident_name(ctx);
		} else if (tok(ctx) == DT_T_INC || tok(ctx) == DT_T_DEC) {
			m = dt_node_new(ctx, DT_N_OP1, &t);
			m->n_op = tok(ctx);
			m->n_post = true;
			m->n_a = n;
			dt_next(ctx);
		} else {
			return n;
		}
		n = m;
	}
}

/* ---- unary and casts ---- */

/*
 * unary: postfix | ('++'|'--') unary | ('&'|'*'|'+'|'-'|'~'|'!') cast
 *      | 'sizeof' unary | 'sizeof' '(' type-name ')' | 'stringof' unary
 */
static dt_node *unary(dt_ctx *ctx)
{
	dt_tok t = ctx->c_tok;
	dt_node *n;
	enter(ctx);
	switch (t.t_kind) {
	case DT_T_INC: case DT_T_DEC:
		dt_next(ctx);
		n = dt_node_new(ctx, DT_N_OP1, &t);
		n->n_op = t.t_kind;
		n->n_a = unary(ctx);
		break;
	case DT_T_BAND: case DT_T_STAR: case DT_T_PLUS: case DT_T_MINUS:
	case DT_T_BNEG: case DT_T_LNEG:
		dt_next(ctx);
		n = dt_node_new(ctx, DT_N_OP1, &t);
		n->n_op = t.t_kind;
		n->n_a = cast_expr(ctx);
		break;
	case DT_T_SIZEOF:
		dt_next(ctx);
		n = dt_node_new(ctx, DT_N_SIZEOF, &t);
		if (tok(ctx) == DT_T_LPAR && paren_type_follows(ctx)) {
			dt_next(ctx);
			n->n_ctype = dt_parse_type(ctx);
			dt_expect(ctx, DT_T_RPAR);
			break;
		}
		n->n_a = unary(ctx);
		break;
	case DT_T_STRINGOF:
		dt_next(ctx);
		n = dt_node_new(ctx, DT_N_STRINGOF, &t);
		n->n_a = unary(ctx);
		break;
	default:
		n = postfix(ctx);
		break;
	}
	ctx->c_depth--;
	return n;
}

/*
 * With '(' as the current token: is the next token the start of a type
 * name?  Peeks one token and puts the lexer back (in its own frame, so the
 * recursive callers stay small).
 */
static DT_NOINLINE bool paren_type_follows(dt_ctx *ctx)
{
	size_t pos = ctx->c_pos;
	uint32_t line = ctx->c_line, col = ctx->c_col;
	dt_tok cur = ctx->c_tok, prev = ctx->c_prev;
	dt_next(ctx);
	bool r = dt_starts_type(ctx);
	ctx->c_pos = pos;
	ctx->c_line = line;
	ctx->c_col = col;
	ctx->c_tok = cur;
	ctx->c_prev = prev;
	return r;
}

/* cast: unary | '(' type-name ')' cast */
static dt_node *cast_expr(dt_ctx *ctx)
{
	if (tok(ctx) != DT_T_LPAR || !paren_type_follows(ctx))
		return unary(ctx);
	dt_node *n = dt_node_here(ctx, DT_N_CAST);
	dt_next(ctx);
	n->n_ctype = dt_parse_type(ctx);
	dt_expect(ctx, DT_T_RPAR);
	enter(ctx);
	n->n_a = cast_expr(ctx);
	ctx->c_depth--;
	return n;
}

/* ---- binary levels ---- */

/* Binary operator precedence (higher binds tighter); 0: not binary. */
static int binprec(dt_tokkind k)
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
static dt_node *binary(dt_ctx *ctx, int minprec)
{
	dt_node *lhs = cast_expr(ctx);
	for (;;) {
		int p = binprec(tok(ctx));
		if (p == 0 || p < minprec)
			return lhs;
		if (tok(ctx) == DT_T_SLASH && ctx->c_inpred &&
		    dt_lex_peek_char(ctx) == '{')
			return lhs;
		dt_node *n = dt_node_here(ctx, DT_N_OP2);
		n->n_op = tok(ctx);
		dt_next(ctx);
		enter(ctx);
		n->n_a = lhs;
		n->n_b = binary(ctx, p + 1);
		ctx->c_depth--;
		lhs = n;
	}
}

/* conditional: logical-or [ '?' expr ':' conditional ] */
dt_node *dt_parse_cond(dt_ctx *ctx)
{
	dt_node *c = binary(ctx, 1);
	if (tok(ctx) != DT_T_QUESTION)
		return c;
	dt_node *n = dt_node_here(ctx, DT_N_OP3);
	dt_next(ctx);
	enter(ctx);
	n->n_a = c;
	n->n_b = dt_parse_expr(ctx);
	dt_expect(ctx, DT_T_COLON);
	n->n_c = dt_parse_cond(ctx);
	ctx->c_depth--;
	return n;
}

/* = and the compound assignment operators. */
static bool is_assign_op(dt_tokkind k)
{
	return k == DT_T_ASGN || (k >= DT_T_ADD_EQ && k <= DT_T_RSH_EQ);
}

/* assignment: conditional | unary assign-op assignment */
static dt_node *assign_expr(dt_ctx *ctx)
{
	dt_node *lhs = dt_parse_cond(ctx);
	if (!is_assign_op(tok(ctx)))
		return lhs;
	dt_node *n = dt_node_here(ctx, DT_N_OP2);
	n->n_op = tok(ctx);
	dt_next(ctx);
	enter(ctx);
	n->n_a = lhs;
	n->n_b = assign_expr(ctx);
	ctx->c_depth--;
	return n;
}

/* expr: assignment { ',' assignment } */
dt_node *dt_parse_expr(dt_ctx *ctx)
{
	dt_node *n = assign_expr(ctx);
	while (tok(ctx) == DT_T_COMMA) {
		dt_node *c = dt_node_here(ctx, DT_N_OP2);
		c->n_op = DT_T_COMMA;
		dt_next(ctx);
		c->n_a = n;
		c->n_b = assign_expr(ctx);
		n = c;
	}
	return n;
}

/* ---- statements ---- */

static dt_node *statement(dt_ctx *ctx);

/* statement-list: { statement }   (the last ';' before '}' is optional) */
static dt_node *statement_list(dt_ctx *ctx)
{
	dt_node *head = NULL, **tail = &head;
	while (tok(ctx) != DT_T_RBRACE) {
		dt_node *s = statement(ctx);
		if (s != NULL) {
			*tail = s;
			tail = &s->n_next;
		}
	}
	return head;
}

/*
 * statement: ';' | expr ';' | expr '}' (last) | '{' statement-list '}'
 *          | 'if' '(' expr ')' statement [ 'else' statement ]
 */
static dt_node *statement(dt_ctx *ctx)
{
	dt_node *n;
	enter(ctx);
	if (dt_accept(ctx, DT_T_SEMI)) {
		n = NULL;
	} else if (tok(ctx) == DT_T_LBRACE) {
		n = dt_node_here(ctx, DT_N_BLOCK);
		dt_next(ctx);
		n->n_args = statement_list(ctx);
		dt_expect(ctx, DT_T_RBRACE);
	} else if (tok(ctx) == DT_T_IF) {
		n = dt_node_here(ctx, DT_N_IF);
		dt_next(ctx);
		dt_expect(ctx, DT_T_LPAR);
		n->n_a = dt_parse_expr(ctx);
		dt_expect(ctx, DT_T_RPAR);
		n->n_b = statement(ctx);
		if (dt_accept(ctx, DT_T_ELSE))
			n->n_c = statement(ctx);
	} else {
		n = dt_node_here(ctx, DT_N_EXPRSTMT);
		n->n_a = dt_parse_expr(ctx);
		if (tok(ctx) != DT_T_RBRACE)
			dt_expect(ctx, DT_T_SEMI);
	}
	ctx->c_depth--;
	return n;
}

/* ---- clauses and the program ---- */

/* pdesc-list: pdesc { ',' pdesc } */
static dt_node *pdesc_list(dt_ctx *ctx)
{
	dt_node *head = NULL, **tail = &head;
	for (;;) {
		if (tok(ctx) != DT_T_PDESC)
			dt_syntax_error(ctx);
		dt_node *p = dt_node_here(ctx, DT_N_PDESC);
		p->n_str = ctx->c_tok.t_str;
		*tail = p;
		tail = &p->n_next;
		/* the character after a pdesc decides: ',' '/' '{' */
		dt_next(ctx);
		if (tok(ctx) != DT_T_COMMA)
			return head;
		dt_lex_next(ctx, DT_LEX_PDESC);
	}
}

/*
 * clause: pdesc-list [ '/' expr '/' ] '{' statement-list '}'
 *       | pdesc-list             (at end of input or of its line: no body)
 */
static void clause(dt_ctx *ctx)
{
	dt_node *c = dt_node_here(ctx, DT_N_CLAUSE);
	c->n_args = pdesc_list(ctx);
	if (dt_accept(ctx, DT_T_SLASH)) {
		/* the predicate ends at a '/' followed by '{' */
		ctx->c_inpred = true;
		c->n_a = dt_parse_expr(ctx);
		ctx->c_inpred = false;
		dt_expect(ctx, DT_T_SLASH);
		if (tok(ctx) != DT_T_LBRACE)
			dt_syntax_error(ctx);
	}
	if (tok(ctx) == DT_T_LBRACE) {
		dt_next(ctx);
		c->n_b = statement_list(ctx);
		if (tok(ctx) != DT_T_RBRACE)
			dt_syntax_error(ctx);
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
		dt_syntax_error(ctx);
	}
	dt_sema_clause(ctx, c);
}

/* item: clause | declaration ';' | inline ';' | translator ';' | ';' */
static void item(dt_ctx *ctx)
{
	switch (tok(ctx)) {
	case DT_T_PDESC:
		clause(ctx);
		break;
	case DT_T_INLINE:
		dt_parse_inline(ctx);
		break;
	case DT_T_TRANSLATOR:
		dt_parse_translator(ctx);
		break;
	case DT_T_PROVIDER:
		dt_parse_provider(ctx);
		break;
	case DT_T_PROBE: case DT_T_IMPORT:
		dt_syntax_error(ctx);
	case DT_T_SEMI:
		break;
	default:
		dt_parse_declaration(ctx);
		break;
	}
}

/* library: { item } EOF, where no item is a clause (dt_lib.c) */
void dt_parse_library(dt_ctx *ctx)
{
	for (dt_lex_next(ctx, DT_LEX_TOP); tok(ctx) != DT_T_EOF;
	    dt_lex_next(ctx, DT_LEX_TOP)) {
		if (tok(ctx) == DT_T_PDESC)
			dt_error_tok(ctx, "D_SYNTAX", "probe clauses may not "
			    "appear in a library file");
		item(ctx);
	}
}

/* program: { item } EOF */
void dt_parse_program(dt_ctx *ctx)
{
	dt_lex_next(ctx, DT_LEX_TOP);
	if (tok(ctx) == DT_T_EOF)
		dt_error_at(ctx, ctx->c_line, ctx->c_col, "D_EMPTY",
		    "empty D program translation unit");
	while (tok(ctx) != DT_T_EOF) {
		item(ctx);
		dt_lex_next(ctx, DT_LEX_TOP);
	}
}
