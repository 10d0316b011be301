/*
 * dlang/dt_printf.c: printf/printa/system format strings.
 *
 * dt_printf_create() parses a format string at compile time into a
 * dt_fmtdesc (the literal text and one dt_conv per conversion), and checks
 * each value argument against its conversion's prototype, as DTrace does:
 *
 *   %d %i %o %u %x %X   char, short, int, long, or long long
 *   %c                  char, short, or int
 *   %s                  char [] or string (or use stringof)
 *   %p %a %A            pointer or integer
 *   %Y                  int64_t (a walltimestamp)
 *   %k                  stack (a stack( ) value)
 *   %e %f %g ...        float, double, or long double (dt_float.c)
 *   %@...               the aggregation's value (printa only)
 *
 * '*' widths and precisions consume an int argument.  For printa the
 * plain conversions apply to the aggregation's keys, in order.
 */
#include "dlang/dt.h"

typedef struct pf_spec {
	const char *ps_conv;		/* conversion letters */
	const char *ps_proto;		/* the prototype text DTrace prints */
	dt_convkind ps_kind;
} pf_spec;

static const pf_spec pf_specs[] = {
	{ "di", "char, short, int, long, or long long", DT_CONV_SINT },
	{ "ouxX", "char, short, int, long, or long long", DT_CONV_UINT },
	{ "c", "char, short, or int", DT_CONV_UINT },
	{ "s", "char [] or string (or use stringof)", DT_CONV_STR },
	{ "paA", "pointer or integer", DT_CONV_PTR },
	{ "Y", "int64_t", DT_CONV_Y },
	{ "k", "stack", DT_CONV_K },
	{ "eEfgG", "float, double, or long double", DT_CONV_FLT },
};

static const pf_spec *
spec_find(char c)
{
	for (size_t i = 0; i < sizeof (pf_specs) / sizeof (pf_specs[0]); i++)
		for (const char *p = pf_specs[i].ps_conv; *p != '\0'; p++)
			if (*p == c)
				return (&pf_specs[i]);
	return (NULL);
}

static bool
arg_ok(const pf_spec *ps, char conv, const dt_type *t)
{
	switch (ps->ps_kind) {
	case DT_CONV_FLT:
		return (t->ty_kind == DT_TK_FLOAT);
	case DT_CONV_SINT: case DT_CONV_UINT: case DT_CONV_Y:
		if (conv == 'c')
			return (dt_type_isint(t) && t->ty_size <= 4);
		return (dt_type_isint(t) || (conv != 'd' && conv != 'i' &&
		    t->ty_kind == DT_TK_PTR));
	case DT_CONV_STR:
		return (dt_type_isstring(t) || (t->ty_kind == DT_TK_ARRAY &&
		    t->ty_base->ty_size == 1));
	case DT_CONV_PTR:
		return (dt_type_isscalar(t) || t->ty_kind == DT_TK_SYMADDR);
	case DT_CONV_K:
		return (t->ty_kind == DT_TK_STACK);
	default:
		return (true);
	}
}

typedef struct pf_state {
	dt_ctx *pf_ctx;
	dt_node *pf_call;
	const char *pf_fname;
	dt_node *pf_arg;		/* next value argument */
	uint32_t pf_argno;		/* its position in the call (1-based) */
	uint32_t pf_conv;		/* conversion number (1-based) */
	bool pf_printa;
	uint32_t pf_nkeys;		/* printa: keys available */
	dt_keytype *pf_keys;
} pf_state;

/* The argument (described by arg) does not suit conversion %conv. */
static _Noreturn void
pf_mismatch(pf_state *s, const char *conv, const char *proto,
    const char *arg)
{
	dt_error_node(s->pf_ctx, s->pf_call, "D_PRINTF_ARG_TYPE", "%s( ) "
	    "argument #%u is incompatible with conversion #%u prototype:\n"
	    "\tconversion: %%%s\n\t prototype: %s\n\t  argument: %s",
	    s->pf_fname, s->pf_argno, s->pf_conv, conv, proto, arg);
}

static _Noreturn void
pf_mismatch_type(pf_state *s, const char *conv, const char *proto,
    const dt_type *t)
{
	char b[64];
	dt_type_name(t, b, sizeof (b));
	pf_mismatch(s, conv, proto, b);
}

/* Conversion %conv has no argument left. */
static _Noreturn void
pf_missing(pf_state *s, const char *conv)
{
	dt_error_node(s->pf_ctx, s->pf_call, "D_PRINTF_ARG_PROTO", "%s( ) "
	    "prototype mismatch: conversion #%u (%%%s) is missing a "
	    "corresponding value argument", s->pf_fname, s->pf_conv, conv);
}

/* Take the next value argument for conversion `conv`. */
static void
pf_take(pf_state *s, const char *conv, const pf_spec *ps, char c)
{
	if (s->pf_printa) {
		if (s->pf_nkeys == 0)
			pf_missing(s, conv);
		const dt_keytype *kt = s->pf_keys++;
		s->pf_nkeys--;
		bool ok;
		switch (ps->ps_kind) {
		case DT_CONV_STR: ok = kt->kt_string; break;
		case DT_CONV_K: ok = kt->kt_kind == DT_KEY_STACK ||
		    kt->kt_kind == DT_KEY_USTACK; break;
		case DT_CONV_PTR: ok = !kt->kt_string && (kt->kt_kind ==
		    DT_KEY_VALUE || kt->kt_kind == DT_KEY_SYM ||
		    kt->kt_kind == DT_KEY_MOD); break;
		default: ok = !kt->kt_string && kt->kt_kind == DT_KEY_VALUE &&
		    (c != 'c' || kt->kt_size <= 4) && c != 'e' && c != 'E' &&
		    c != 'f' && c != 'g' && c != 'G'; break;
		}
		if (!ok)
			pf_mismatch(s, conv, ps->ps_proto, kt->kt_string ?
			    "string key" : kt->kt_kind == DT_KEY_STACK ?
			    "stack key" : "integer key");
		return;
	}
	if (s->pf_arg == NULL)
		pf_missing(s, conv);
	if (s->pf_arg->n_kind == DT_N_AGG)
		pf_mismatch(s, conv, ps->ps_proto, "aggregation");
	if (!arg_ok(ps, c, s->pf_arg->n_type))
		pf_mismatch_type(s, conv, ps->ps_proto, s->pf_arg->n_type);
	s->pf_arg = s->pf_arg->n_next;
	s->pf_argno++;
}

/* A '*' width or precision (conv "*" or ".*") takes an int argument. */
static void
pf_star(pf_state *s, const char *conv)
{
	if (s->pf_printa)
		return;
	if (s->pf_arg == NULL)
		pf_missing(s, conv);
	if (!dt_type_isint(s->pf_arg->n_type))
		pf_mismatch_type(s, conv, "int", s->pf_arg->n_type);
	s->pf_arg = s->pf_arg->n_next;
	s->pf_argno++;
}

/* Parse one conversion starting after '%'; returns chars consumed. */
static size_t
pf_conv(pf_state *s, const char *p, dt_conv *cv)
{
	size_t i = 0;
	bool agg = false;
	cv->cv_spec[0] = '%';
	while (p[i] != '\0' &&
	    (p[i] == '-' || p[i] == '+' || p[i] == ' ' || p[i] == '#' ||
	    p[i] == '0' || p[i] == '\'' || p[i] == '@')) {
		if (p[i] == '@')
			agg = true;
		i++;
	}
	if (p[i] == '*') {
		cv->cv_star_width = 1;
		pf_star(s, "*");
		i++;
	}
	while (p[i] >= '0' && p[i] <= '9')
		i++;
	if (p[i] == '.') {
		i++;
		if (p[i] == '*') {
			cv->cv_star_prec = 1;
			pf_star(s, ".*");
			i++;
		}
		while (p[i] >= '0' && p[i] <= '9')
			i++;
	}
	while (p[i] == 'h' || p[i] == 'l' || p[i] == 'L' || p[i] == 'z' ||
	    p[i] == 'j' || p[i] == 't' || p[i] == 'w')
		i++;
	char c = p[i];
	size_t n = i + 1 < sizeof (cv->cv_spec) - 1 ? i + 1 :
	    sizeof (cv->cv_spec) - 2;
	__builtin_memcpy(cv->cv_spec + 1, p, c == '\0' ? i : n);
	const char *conv = cv->cv_spec + 1;
	if (c == '%' && i == 0) {
		cv->cv_kind = DT_CONV_PCT;
		return (1);
	}
	const pf_spec *ps = c == '\0' ? NULL : spec_find(c);
	if (ps == NULL)
		dt_error_node(s->pf_ctx, s->pf_call, "D_PRINTF_FMT_CONV",
		    "%s( ) argument #1: format conversion #%u is undefined: "
		    "%%%s", s->pf_fname, s->pf_conv, conv);
	if (agg) {
		if (!s->pf_printa)
			dt_error_node(s->pf_ctx, s->pf_call, "D_PRINTF_AGG_CONV",
			    "%%@ conversion requires an aggregation and is not "
			    "for use with %s( )", s->pf_fname);
		cv->cv_kind = DT_CONV_AGG;
		return (i + 1);
	}
	cv->cv_kind = ps->ps_kind;
	if (c == 'a' || c == 'A')
		cv->cv_kind = DT_CONV_SYM;
	pf_take(s, conv, ps, c);
	return (i + 1);
}

/*
 * Parse `fmt` (a string constant node) for the call `call` to fname with
 * value arguments starting at `args` (printa: the aggregations).  Adds the
 * format to the program and returns its index.
 */
int
dt_printf_create(dt_ctx *ctx, dt_node *call, const char *fname,
    dt_node *fmt, dt_node *args, bool printa)
{
	if (fmt->n_kind != DT_N_STR) {
		char b[64];
		dt_type_name(fmt->n_type, b, sizeof (b));
		dt_error_node(ctx, call, "D_PRINTF_ARG_FMT", "%s( ) argument "
		    "#1 is incompatible with prototype:\n\tprototype: string "
		    "constant\n\t argument: %s", fname, b);
	}
	const char *f = fmt->n_str;
	if (*f == '\0' && !printa && !dt_streq(fname, "freopen"))
		dt_error_node(ctx, call, "D_PRINTF_FMT_EMPTY", "%s( ) format "
		    "string is empty", fname);
	pf_state s = { ctx, call, fname, args, 2, 0, printa, 0, NULL };
	if (printa && args != NULL) {
		char key[80];
		dt_snprintf(key, sizeof (key), "@%s", args->n_str);
		dt_ident *id = dt_ident_lookup(&ctx->c_globals, key);
		if (id != NULL) {
			s.pf_nkeys = ctx->c_prog->dp_aggs[id->id_aggidx].ag_nkeys;
			s.pf_keys = ctx->c_prog->dp_aggs[id->id_aggidx].ag_keys;
		}
	}
	dt_fmtdesc fd = { f, NULL, 0, printa };
	uint32_t cap = 0;
	for (const char *p = f; *p != '\0'; p++) {
		if (*p != '%')
			continue;
		fd.fd_convs = dt_grow(ctx, fd.fd_convs, fd.fd_nconvs, &cap,
		    sizeof (dt_conv));
		dt_conv *cv = &fd.fd_convs[fd.fd_nconvs];
		__builtin_memset(cv, 0, sizeof (*cv));
		if (p[1] != '%')
			s.pf_conv++;
		p += pf_conv(&s, p + 1, cv);
		fd.fd_nconvs++;
	}
	if (!printa && s.pf_arg != NULL)
		dt_error_node(ctx, call, "D_PRINTF_ARG_EXTRA", "%s( ) prototype "
		    "mismatch: only %u arguments required by this format "
		    "string", fname, s.pf_argno - 1);
	return ((int)dt_format_add(ctx, &fd));
}
