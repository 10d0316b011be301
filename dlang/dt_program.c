/*
 * dlang/dt_program.c: the compile entry point and the program object.
 *
 * dt_compile() sets up one dt_ctx at the start of the caller's arena,
 * arms the error unwinding (__builtin_setjmp), and runs the parser, which
 * drives the other passes clause by clause.  This file also owns:
 *
 *   - the arena (dt_alloc): a bump allocator; running out is the compile
 *     error D_NOMEM, never a crash;
 *   - errors (dt_error_*): format the message into the caller's dt_error
 *     and unwind to dt_compile();
 *   - the builders of the program object: clauses, actions, aggregations,
 *     formats, variables and options (#pragma D option), which grow arrays
 *     inside the arena;
 *   - small freestanding string helpers and a tiny snprintf.
 *
 * No state outlives a call except the program in the arena.
 *
 * Tests: tests/unit/dlang_compile_test.c; tests/dlang/pragma_options.S; make
 *        dlang-fuzz
 */
#include "dlang/dt.h"

/* ---- string helpers ---- */

size_t dt_strlen(const char *s)
{
	size_t n = 0;
	while (s[n] != '\0')
		n++;
	return n;
}

int dt_strcmp(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

bool dt_streq(const char *a, const char *b)
{
	return dt_strcmp(a, b) == 0;
}

/* ---- a small vsnprintf: %s %c %d %u %x %lld %llu %llx %% ---- */

typedef struct dt_out {
	char *o_buf;
	size_t o_len, o_pos;
} dt_out;

static void out_c(dt_out *o, char c)
{
	if (o->o_pos + 1 < o->o_len)
		o->o_buf[o->o_pos] = c;
	o->o_pos++;
}

static void out_u(dt_out *o, uint64_t v, unsigned base, bool neg)
{
	char d[24];
	int n = 0;
	if (neg)
		out_c(o, '-');
	do {
		d[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v != 0);
	while (n > 0)
		out_c(o, d[--n]);
}

size_t dt_vsnprintf(char *buf, size_t len, const char *fmt, va_list ap)
{
	dt_out o = { buf, len, 0 };
	for (; *fmt != '\0'; fmt++) {
		if (*fmt != '%') {
			out_c(&o, *fmt);
			continue;
		}
		int l = 0;
		fmt++;
		while (*fmt == 'l') {
			l++;
			fmt++;
		}
		switch (*fmt) {
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (s == NULL)
				s = "(null)";
			while (*s != '\0')
				out_c(&o, *s++);
			break;
		}
		case 'c':
			out_c(&o, (char)va_arg(ap, int));
			break;
		case 'd': {
			int64_t v = l ? va_arg(ap, long long) : va_arg(ap, int);
			out_u(&o, v < 0 ? -(uint64_t)v : (uint64_t)v, 10, v < 0);
			break;
		}
		case 'u':
		case 'x': {
			uint64_t v = l ? va_arg(ap, unsigned long long) :
			    va_arg(ap, unsigned);
			out_u(&o, v, *fmt == 'x' ? 16 : 10, false);
			break;
		}
		case '%':
			out_c(&o, '%');
			break;
		default:
			return o.o_pos;
		}
	}
	if (len > 0)
		buf[o.o_pos < len ? o.o_pos : len - 1] = '\0';
	return o.o_pos;
}

size_t dt_snprintf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t n = dt_vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n;
}

/* ---- errors ---- */

static _Noreturn void error_v(dt_ctx *ctx, uint32_t line, uint32_t col, const char *tag,
                              const char *fmt, va_list ap)
{
	dt_error *e = ctx->c_err;
	e->de_tag = tag;
	e->de_file = ctx->c_lib;
	e->de_line = line;
	e->de_col = col;
	dt_vsnprintf(e->de_msg, sizeof(e->de_msg), fmt, ap);
	__builtin_longjmp(ctx->c_jmp, 1);
}

_Noreturn void dt_error_at(dt_ctx *ctx, uint32_t line, uint32_t col, const char *tag,
                           const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	error_v(ctx, line, col, tag, fmt, ap);
}

_Noreturn void dt_error_node(dt_ctx *ctx, const dt_node *n, const char *tag,
                             const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	error_v(ctx, n->n_line, n->n_col, tag, fmt, ap);
}

_Noreturn void dt_error_tok(dt_ctx *ctx, const char *tag, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	error_v(ctx, ctx->c_tok.t_line, ctx->c_tok.t_col, tag, fmt, ap);
}

size_t dt_error_format(const dt_error *err, bool errtags, char *buf, size_t len)
{
	if (errtags)
		return (dt_snprintf(buf, len, "[%s] line %u: %s", err->de_tag,
		    err->de_line, err->de_msg));
	return (dt_snprintf(buf, len, "line %u: %s", err->de_line,
	    err->de_msg));
}

/* ---- the arena ---- */

void *dt_alloc(dt_ctx *ctx, size_t n)
{
	dt_arena *a = &ctx->c_arena;
	n = (n + 7) & ~(size_t)7;
	if (n > a->a_size - a->a_used)
		dt_error_at(ctx, ctx->c_line, ctx->c_col, "D_NOMEM",
		    "failed to allocate memory: compiler arena of %u bytes "
		    "exhausted", (unsigned)a->a_size);
	void *p = a->a_base + a->a_used;
	a->a_used += n;
	__builtin_memset(p, 0, n);
	return p;
}

char *dt_strdup(dt_ctx *ctx, const char *s, size_t n)
{
	char *d = dt_alloc(ctx, n + 1);
	__builtin_memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* Grow an array of elem-sized items to hold n + 1 (doubling). */
void *dt_grow(dt_ctx *ctx, void *old, uint32_t n, uint32_t *cap, size_t elem)
{
	if (n < *cap)
		return old;
	uint32_t nc = *cap == 0 ? 2 : *cap * 2;
	void *p = dt_alloc(ctx, (size_t)nc * elem);
	if (old != NULL)
		__builtin_memcpy(p, old, (size_t)n * elem);
	*cap = nc;
	return p;
}

/* ---- program builders ---- */

void dt_clause_begin(dt_ctx *ctx, dt_node *c)
{
	dt_prog *p = ctx->c_prog;
	p->dp_clauses = dt_grow(ctx, p->dp_clauses, p->dp_nclauses,
	    &ctx->c_capclauses, sizeof(dt_clause));
	dt_clause *cl = &p->dp_clauses[p->dp_nclauses++];
	__builtin_memset(cl, 0, sizeof(*cl));
	cl->cl_line = c->n_line;
	__builtin_memset(&ctx->c_cl, 0, sizeof(ctx->c_cl));
	ctx->c_cl.cs_clause = cl;
}

void dt_clause_end(dt_ctx *ctx)
{
	dt_clause *cl = ctx->c_cl.cs_clause;
	cl->cl_destructive = ctx->c_cl.cs_destr;
	cl->cl_speculative = ctx->c_cl.cs_spec;
	if (cl->cl_destructive)
		ctx->c_prog->dp_destructive = true;
}

dt_action *dt_action_add(dt_ctx *ctx, dt_actkind k, const dt_node *where)
{
	if (ctx->c_cl.cs_pending != NULL)
		dt_clause_split(ctx);
	dt_clause *cl = ctx->c_cl.cs_clause;
	cl->cl_acts = dt_grow(ctx, cl->cl_acts, cl->cl_nacts,
	    &ctx->c_cl.cs_maxacts, sizeof(dt_action));
	dt_action *a = &cl->cl_acts[cl->cl_nacts++];
	__builtin_memset(a, 0, sizeof(*a));
	a->ac_kind = k;
	a->ac_line = where->n_line;
	a->ac_fmt = -1;
	return a;
}

uint32_t dt_agg_add(dt_ctx *ctx, const char *name)
{
	dt_prog *p = ctx->c_prog;
	p->dp_aggs = dt_grow(ctx, p->dp_aggs, p->dp_naggs, &ctx->c_capaggs,
	    sizeof(dt_aggdesc));
	dt_aggdesc *ag = &p->dp_aggs[p->dp_naggs];
	__builtin_memset(ag, 0, sizeof(*ag));
	ag->ag_name = name;
	ag->ag_id = p->dp_naggs;
	return p->dp_naggs++;
}

uint32_t dt_format_add(dt_ctx *ctx, const dt_fmtdesc *fd)
{
	dt_prog *p = ctx->c_prog;
	p->dp_formats = dt_grow(ctx, p->dp_formats, p->dp_nformats,
	    &ctx->c_capfmts, sizeof(dt_fmtdesc));
	p->dp_formats[p->dp_nformats] = *fd;
	return p->dp_nformats++;
}

void dt_vardesc_add(dt_ctx *ctx, dt_ident *id)
{
	dt_prog *p = ctx->c_prog;
	p->dp_vars = dt_grow(ctx, p->dp_vars, p->dp_nvars, &ctx->c_capvars,
	    sizeof(dt_vardesc));
	dt_vardesc *v = &p->dp_vars[p->dp_nvars++];
	v->vd_name = id->id_name;
	v->vd_id = id->id_id;
	v->vd_scope = id->id_scope;
	v->vd_kind = id->id_kind == DT_IDK_ARRAY ? DIF_VKIND_ARRAY :
	    DIF_VKIND_SCALAR;
	v->vd_string = id->id_type != NULL && dt_type_isstring(id->id_type);
	v->vd_size = id->id_type == NULL ? 8 : v->vd_string ?
	    p->dp_strsize : id->id_type->ty_size;
	v->vd_nkeys = id->id_nkeys;
	v->vd_nstrkeys = 0;
	for (uint32_t i = 0; i < id->id_nkeys && i < DT_MAXKEYS; i++)
		v->vd_nstrkeys += id->id_keys[i] != NULL &&
		    (dt_type_isstring(id->id_keys[i]) ||
		    id->id_keys[i]->ty_kind == DT_TK_STRUCT ||
		    id->id_keys[i]->ty_kind == DT_TK_UNION);
}

/* ---- options and #pragma ---- */

void dt_option_add(dt_ctx *ctx, const char *name, const char *value,
                   uint32_t line)
{
	dt_optval ov;
	dt_opterr e = dt_option_parse(name, *value ? value : NULL, &ov);
	if (e == DT_OPT_OK && dt_streq(name, "strsize") &&
	    (ov.ov_num < 2 || ov.ov_num > 0x10000))
		e = DT_OPT_BADVAL;
	if (e == DT_OPT_OK && ov.ov_kind == DT_OPTK_VERSION &&
	    ov.ov_num > ctx->c_version)
		e = DT_OPT_VERSREDUCED;	/* a binding can only go down */
	if (e != DT_OPT_OK && *value == '\0')
		dt_error_at(ctx, line, 1, "D_PRAGMA_OPTSET", "failed to set "
		    "option '%s': %s", name, dt_option_errmsg(e));
	if (e != DT_OPT_OK)
		dt_error_at(ctx, line, 1, "D_PRAGMA_OPTSET", "failed to set "
		    "option '%s' to '%s': %s", name, value, dt_option_errmsg(e));
	if (dt_streq(name, "zdefs"))
		ctx->c_zdefs = true;
	if (dt_streq(name, "defaultargs"))
		ctx->c_defargs = true;
	if (dt_streq(name, "argref"))
		ctx->c_argref = true;
	if (ov.ov_kind == DT_OPTK_VERSION)	/* what follows sees no newer names */
		ctx->c_version = (uint32_t)ov.ov_num;
	if (dt_streq(name, "strsize"))
		ctx->c_prog->dp_strsize = (uint32_t)ov.ov_num;
	dt_prog *p = ctx->c_prog;
	p->dp_options = dt_grow(ctx, p->dp_options, p->dp_noptions,
	    &ctx->c_capopts, sizeof(dt_option));
	dt_option *o = &p->dp_options[p->dp_noptions++];
	o->op_name = name;
	o->op_value = value;
	o->op_line = line;
}

/* Split off the next blank-separated word of *sp (modifies the text). */
static char *next_word(char **sp)
{
	char *s = *sp;
	while (*s == ' ' || *s == '\t')
		s++;
	char *w = s;
	while (*s != '\0' && *s != ' ' && *s != '\t')
		s++;
	if (*s != '\0')
		*s++ = '\0';
	*sp = s;
	return w;
}

static void pragma_option(dt_ctx *ctx, char *rest, uint32_t line)
{
	char *opt = next_word(&rest);
	if (*opt == '\0')
		dt_error_at(ctx, line, 1, "D_PRAGMA_MALFORM",
		    "malformed #pragma option <option>=<val>");
	if (*next_word(&rest) != '\0')
		dt_error_at(ctx, line, 1, "D_PRAGMA_MALFORM",
		    "superfluous arguments specified for #pragma option");
	char *eq = opt;
	while (*eq != '\0' && *eq != '=')
		eq++;
	const char *val = "";
	if (*eq == '=') {
		*eq = '\0';
		val = eq + 1;
	}
	dt_option_add(ctx, dt_strdup(ctx, opt, dt_strlen(opt)),
	    dt_strdup(ctx, val, dt_strlen(val)), line);
}

/*
 * "#error ..." (also after "#pragma" and "#pragma D"): DTrace's message is
 * "#error: " and then each identifier and string of the line (a string
 * without its quotes) followed by a space; numbers are left out.
 */
static _Noreturn void pragma_error(dt_ctx *ctx, const char *rest, uint32_t line)
{
	char msg[256];
	size_t n = 0;
	while (*rest != '\0') {
		while (*rest == ' ' || *rest == '\t')
			rest++;
		if (*rest == '\0')
			break;
		const char *w = rest;
		bool str = *rest == '"', num = *rest >= '0' && *rest <= '9';
		if (str) {
			w = ++rest;
			while (*rest != '\0' && *rest != '"')
				rest++;
		} else {
			while (*rest != '\0' && *rest != ' ' && *rest != '\t')
				rest++;
		}
		size_t len = (size_t)(rest - w);
		if (str && *rest == '"')
			rest++;
		if (num)
			continue;
		for (size_t i = 0; i < len && n < sizeof(msg) - 2; i++)
			msg[n++] = w[i];
		if (n < sizeof(msg) - 1)
			msg[n++] = ' ';
	}
	msg[n] = '\0';
	dt_error_at(ctx, line, 1, "D_PRAGERR", "#error: %s", msg);
}

/*
 * "#line N" and cpp's "# N": the next line is line N, as DTrace's lexer
 * counts them (the -C preprocessor, dlang/dt_cpp.c, numbers its output so).
 * The control line's own newline is still to come, hence N - 1.
 */
static void pragma_line(dt_ctx *ctx, const char *num)
{
	uint32_t n = 0;
	for (; *num >= '0' && *num <= '9' && n < 100000000; num++)
		n = n * 10 + (uint32_t)(*num - '0');
	if (n > 0 && *num == '\0')
		ctx->c_line = n - 1;
}

/*
 * A control line (the text after '#'): "pragma D option x=y", "pragma D
 * error ...", other "pragma D" directives, "line N", "N \"file\"", "".
 */
void dt_pragma(dt_ctx *ctx, char *text, uint32_t line)
{
	char *rest = text;
	char *w = next_word(&rest);
	if (line == 1 && *text == '!')
		return;		/* "#!/usr/sbin/dtrace -s": an interpreter file */
	if (dt_streq(w, "line") || (*w >= '0' && *w <= '9')) {
		pragma_line(ctx, dt_streq(w, "line") ? next_word(&rest) : w);
		return;
	}
	if (*w == '\0' || dt_streq(w, "ident"))
		return;
	if (dt_streq(w, "error"))
		pragma_error(ctx, rest, line);
	if (!dt_streq(w, "pragma"))
		dt_error_at(ctx, line, 1, "D_PRAGCTL_INVAL", "invalid control "
		    "directive: #%s", w);
	char *sub = next_word(&rest);
	if (dt_streq(sub, "error"))
		pragma_error(ctx, rest, line);
	if (!dt_streq(sub, "D"))
		return;		/* other pragmas are ignored */
	char *what = next_word(&rest);
	if (dt_streq(what, "option")) {
		pragma_option(ctx, rest, line);
	} else if (dt_streq(what, "error")) {
		pragma_error(ctx, rest, line);
	} else if (dt_streq(what, "depends_on") &&
	    dt_streq(next_word(&rest), "library")) {
		dt_lib_depends(ctx, next_word(&rest), line);
	} else if (dt_streq(what, "attributes") || dt_streq(what, "binding") ||
	    dt_streq(what, "depends_on") || dt_streq(what, "ident") ||
	    dt_streq(what, "line")) {
		return;
	} else {
		dt_error_at(ctx, line, 1, "D_PRAGMA_INVAL", "invalid D "
		    "pragma: %s", what);
	}
}

/* ---- entry point ---- */

/*
 * As DTrace: unless argref, the last macro argument must be used, so that
 * a surplus word on the command line is an error, not a silent $n.
 */
static void macro_check_unused(dt_ctx *ctx)
{
	const dt_opts *o = ctx->c_opts;
	if (o->o_argc > 1 && o->o_argv != NULL && !ctx->c_argref &&
	    !ctx->c_lastref)
		dt_error_at(ctx, ctx->c_line, 1, "D_MACRO_UNUSED",
		    "extraneous argument '%s' ($%d is not referenced)",
		    o->o_argv[o->o_argc - 1], o->o_argc - 1);
}

static int compile_guarded(dt_ctx *ctx)
{
	if (__builtin_setjmp(ctx->c_jmp) != 0)
		return -1;
	dt_sema_init(ctx);
	dt_lib_load(ctx);
	dt_lex_init(ctx);
	dt_parse_program(ctx);
	macro_check_unused(ctx);
	return 0;
}

int dt_compile(const char *src, size_t len, const dt_opts *opts, void *arena,
               size_t sz, dt_prog **progp, dt_error *err)
{
	__builtin_memset(err, 0, sizeof(*err));
	*progp = NULL;
	uintptr_t base = ((uintptr_t)arena + 7) & ~(uintptr_t)7;
	size_t adj = base - (uintptr_t)arena;
	if (arena == NULL || sz < adj + sizeof(dt_ctx) + sizeof(dt_prog) +
	    4096) {
		err->de_tag = "D_NOMEM";
		err->de_line = 1;
		dt_snprintf(err->de_msg, sizeof(err->de_msg),
		    "failed to allocate memory: compiler arena too small");
		return -1;
	}
	dt_ctx *ctx = (dt_ctx *)base;
	__builtin_memset(ctx, 0, sizeof(*ctx));
	ctx->c_arena.a_base = (uint8_t *)base + sizeof(dt_ctx);
	ctx->c_arena.a_size = sz - adj - sizeof(dt_ctx);
	ctx->c_src = src;
	ctx->c_len = src == NULL ? 0 : len;
	ctx->c_err = err;
	ctx->c_line = 1;
	ctx->c_col = 1;
	if (opts == NULL) {
		ctx->c_defopts.o_target = -1;
		opts = &ctx->c_defopts;
	}
	ctx->c_opts = opts;
	ctx->c_zdefs = opts->o_zdefs;
	ctx->c_defargs = opts->o_defargs;
	ctx->c_argref = opts->o_argref;
	ctx->c_version = opts->o_version != 0 ? opts->o_version :
	    DT_VERSION_LATEST;
	ctx->c_prog = (dt_prog *)ctx->c_arena.a_base;
	ctx->c_arena.a_used = (sizeof(dt_prog) + 7) & ~(size_t)7;
	__builtin_memset(ctx->c_prog, 0, sizeof(dt_prog));
	ctx->c_prog->dp_strsize = opts->o_strsize != 0 ? opts->o_strsize :
	    DIF_STRSIZE_DEFAULT;
	if (compile_guarded(ctx) != 0)
		return -1;
	ctx->c_prog->dp_arena_used = ctx->c_arena.a_used + sizeof(dt_ctx) +
	    adj;
	*progp = ctx->c_prog;
	return 0;
}
