/*
 * dlang/dt_printf.c: printf/printa/system format strings.
 *
 * dt_printf_create() turns a format string into a dt_fmtdesc in two
 * passes, as DTrace does.  The first parses every conversion: flags
 * (# 0 - + ' space, in any order, of 0 and - the later wins), a width
 * (digits, * or ?, which is 16), a precision (.digits or .*), @ (the
 * aggregation's value, printa only) and a name, the length letters h l L w
 * followed by one conversion letter.  A malformed conversion is a syntax
 * error (D_SYNTAX) naming its number; %% counts in that numbering too.  The
 * second pass checks each conversion's arguments against its prototype:
 *
 *   %d %i %o %u %x %X     char, short, int, long, or long long
 *   %hd %hi / %ho %hu     short / unsigned short (%hx %hX: either)
 *   %ld %li / %lo %lu     long / unsigned long (%lx %lX: either)
 *   %lld ... %llX         long long, likewise
 *   %c %C                 char, short, or int (%C escapes it)
 *   %s %S                 char [] or string (or use stringof); %S escapes
 *   %p %a %A              pointer or integer (%a: or a func() value)
 *   %T %Y                 int64_t (a walltimestamp: RFC 822 / mdb dates)
 *   %k                    stack (a stack( ) value)
 *   %e %f %g ...          float, double, or long double (dt_float.c)
 *   %@...                 the aggregation's value (printa only), checked
 *                         as an int64_t (count(): uint64_t)
 *
 * A * width or precision takes an integer argument (D_PRINTF_DYN_PROTO
 * when missing, D_PRINTF_DYN_TYPE when not an integer), the width first.
 * For printa the plain conversions (and the stars) take the aggregation's
 * keys in order, and need not use all of them; printf must use all of its
 * arguments (D_PRINTF_ARG_EXTRA).  What the consumer needs to print is in
 * each dt_conv: flags, width, precision, name and the C letter.
 *
 * Tests: tests/d/err.D_PRINTF_*.d, err.D_PRINTA_*.d; tests/dlang/printf.S;
 *        tests/d/printf
 */
#include "dlang/dt.h"

typedef enum pf_check {
	PF_INT = 1,	/* any integer */
	PF_CSI,		/* an integer no wider than int */
	PF_SINT2, PF_UINT2, PF_INT2,	/* short, unsigned short, either */
	PF_SINT8, PF_UINT8, PF_INT8,	/* long (long), unsigned, either */
	PF_SINT4,	/* int (%lc %wc) */
	PF_STR,		/* string or char [] */
	PF_ADDR,	/* pointer or integer */
	PF_KADDR,	/* pointer, integer or a func()/sym() value */
	PF_TIME,	/* an 8-byte integer */
	PF_STACK,
	PF_FLOAT,	/* float, double, long double */
	PF_NEVER,	/* wide strings: Sonde has none */
} pf_check;

typedef struct pf_def {
	const char *pd_name;		/* the conversion's name */
	char pd_ofmt;			/* the C letter it prints with */
	dt_convkind pd_kind;
	pf_check pd_check;
	const char *pd_proto;		/* the prototype text DTrace prints */
} pf_def;

#define	P_XINT	"char, short, int, long, or long long"
#define	P_CSI	"char, short, or int"
#define	P_FP	"float, double, or long double"
#define	P_ADDR	"pointer or integer"
#define	P_STR	"char [] or string (or use stringof)"

static const pf_def pf_defs[] = {
	{ "a", 's', DT_CONV_SYM, PF_KADDR, P_ADDR },
	{ "A", 's', DT_CONV_SYM, PF_ADDR, "pointer or integer (with -p/-c) "
	    "or _usymaddr (without -p/-c)" },
	{ "c", 'c', DT_CONV_SINT, PF_CSI, P_CSI },
	{ "C", 's', DT_CONV_ECHR, PF_CSI, P_CSI },
	{ "d", 'd', DT_CONV_SINT, PF_INT, P_XINT },
	{ "e", 'e', DT_CONV_FLT, PF_FLOAT, P_FP },
	{ "E", 'E', DT_CONV_FLT, PF_FLOAT, P_FP },
	{ "f", 'f', DT_CONV_FLT, PF_FLOAT, P_FP },
	{ "g", 'g', DT_CONV_FLT, PF_FLOAT, P_FP },
	{ "G", 'G', DT_CONV_FLT, PF_FLOAT, P_FP },
	{ "hd", 'd', DT_CONV_SINT, PF_SINT2, "short" },
	{ "hi", 'i', DT_CONV_SINT, PF_SINT2, "short" },
	{ "ho", 'o', DT_CONV_UINT, PF_UINT2, "unsigned short" },
	{ "hu", 'u', DT_CONV_UINT, PF_UINT2, "unsigned short" },
	{ "hx", 'x', DT_CONV_UINT, PF_INT2, "short" },
	{ "hX", 'X', DT_CONV_UINT, PF_INT2, "short" },
	{ "i", 'i', DT_CONV_SINT, PF_INT, P_XINT },
	{ "k", 's', DT_CONV_K, PF_STACK, "stack" },
	{ "lc", 'c', DT_CONV_SINT, PF_SINT4, "int" },
	{ "ld", 'd', DT_CONV_SINT, PF_SINT8, "long" },
	{ "li", 'i', DT_CONV_SINT, PF_SINT8, "long" },
	{ "lo", 'o', DT_CONV_UINT, PF_UINT8, "unsigned long" },
	{ "lu", 'u', DT_CONV_UINT, PF_UINT8, "unsigned long" },
	{ "ls", 's', DT_CONV_STR, PF_NEVER, "wchar_t []" },
	{ "lx", 'x', DT_CONV_UINT, PF_INT8, "long" },
	{ "lX", 'X', DT_CONV_UINT, PF_INT8, "long" },
	{ "lld", 'd', DT_CONV_SINT, PF_SINT8, "long long" },
	{ "lli", 'i', DT_CONV_SINT, PF_SINT8, "long long" },
	{ "llo", 'o', DT_CONV_UINT, PF_UINT8, "unsigned long long" },
	{ "llu", 'u', DT_CONV_UINT, PF_UINT8, "unsigned long long" },
	{ "llx", 'x', DT_CONV_UINT, PF_INT8, "long long" },
	{ "llX", 'X', DT_CONV_UINT, PF_INT8, "long long" },
	{ "Le", 'e', DT_CONV_FLT, PF_FLOAT, "long double" },
	{ "LE", 'E', DT_CONV_FLT, PF_FLOAT, "long double" },
	{ "Lf", 'f', DT_CONV_FLT, PF_FLOAT, "long double" },
	{ "Lg", 'g', DT_CONV_FLT, PF_FLOAT, "long double" },
	{ "LG", 'G', DT_CONV_FLT, PF_FLOAT, "long double" },
	{ "o", 'o', DT_CONV_UINT, PF_INT, P_XINT },
	{ "p", 'x', DT_CONV_PTR, PF_ADDR, P_ADDR },
	{ "s", 's', DT_CONV_STR, PF_STR, P_STR },
	{ "S", 's', DT_CONV_ESTR, PF_STR, P_STR },
	{ "T", 's', DT_CONV_T, PF_TIME, "int64_t" },
	{ "u", 'u', DT_CONV_UINT, PF_INT, P_XINT },
	{ "wc", 'c', DT_CONV_SINT, PF_SINT4, "int" },
	{ "ws", 's', DT_CONV_STR, PF_NEVER, "wchar_t []" },
	{ "x", 'x', DT_CONV_UINT, PF_INT, P_XINT },
	{ "X", 'X', DT_CONV_UINT, PF_INT, P_XINT },
	{ "Y", 's', DT_CONV_Y, PF_TIME, "int64_t" },
	{ "%", '%', DT_CONV_PCT, PF_NEVER, "void" },
};

static bool pf_streq(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b)
		a++, b++;
	return *a == *b;
}

static const pf_def *pf_lookup(const char *name)
{
	for (size_t i = 0; i < sizeof(pf_defs) / sizeof(pf_defs[0]); i++)
		if (pf_streq(pf_defs[i].pd_name, name))
			return &pf_defs[i];
	return NULL;
}

/* ---- pass 1: parsing ---- */

typedef struct pf_parse {
	dt_ctx *pp_ctx;
	dt_node *pp_call;
	uint32_t pp_conv;		/* the conversion's number (1-based) */
} pf_parse;

static _Noreturn void pf_syntax(pf_parse *pp, const char *what)
{
	dt_error_node(pp->pp_ctx, pp->pp_call, "D_SYNTAX", "format "
	    "conversion #%u %s", pp->pp_conv, what);
}

/*
 * pf_flag: apply one flag, width or precision character at p[*i] (its
 * digits consumed); false if it is none of those.
 */
static bool pf_flag(pf_parse *pp, const char *p, size_t *i, dt_conv *cv, int *dot,
                    int *digits)
{
	char c = p[*i];
	if (c >= '0' && c <= '9') {
		if (*dot == 0 && *digits == 0 && c == '0') {
			cv->cv_flags = (uint16_t)((cv->cv_flags | DT_PF_ZPAD) &
			    ~DT_PF_LEFT);
			(*i)++;
			return true;
		}
		int32_t n = 0;
		for (; p[*i] >= '0' && p[*i] <= '9'; (*i)++)
			n = n > 100000000 ? n : n * 10 + (p[*i] - '0');
		*(*dot ? &cv->cv_prec : &cv->cv_width) = n;
		(*digits)++;
		return true;
	}
	uint16_t f = 0;
	switch (c) {
	case '#': f = DT_PF_ALT; break;
	case '+': f = DT_PF_SPOS; break;
	case '@': f = DT_PF_AGG; break;
	case '\'': f = DT_PF_GROUP; break;
	case ' ': f = DT_PF_SPACE; break;
	case '-':
		cv->cv_flags = (uint16_t)((cv->cv_flags | DT_PF_LEFT) &
		    ~DT_PF_ZPAD);
		break;
	case '*':
		f = *dot ? DT_PF_DYNP : DT_PF_DYNW;
		if (cv->cv_flags & f)
			pf_syntax(pp, *dot ? "has more than one '*' specified "
			    "for the output precision" : "has more than one "
			    "'*' specified for the output width");
		break;
	case '.':
		if ((*dot)++ != 0)
			pf_syntax(pp, "has more than one '.' specified");
		*digits = 0;
		break;
	case '?':
		cv->cv_width = 16;		/* a pointer's width, LP64 */
		break;
	case '$':
		pf_syntax(pp, "uses unsupported positional format (%n$)");
	default:
		return false;
	}
	cv->cv_flags |= f;
	(*i)++;
	return true;
}

/*
 * pf_parse_conv: one conversion, p just after its '%'; returns the bytes
 * consumed.  Length letters collect into the name until a conversion
 * letter ends it; '%' is a conversion only right after the opening '%'.
 */
static size_t pf_parse_conv(pf_parse *pp, const char *p, dt_conv *cv)
{
	size_t i = 0, nl = 0;
	int dot = 0, digits = 0;
	char name[8];
	for (;;) {
		if (pf_flag(pp, p, &i, cv, &dot, &digits))
			continue;
		char c = p[i];
		if (c == '\0')
			pf_syntax(pp, "name expected before end of format "
			    "string");
		if (c == '%' && i != 0)
			pf_syntax(pp, "cannot be combined with other format "
			    "flags: %%");
		i++;
		if (c == 'h' || c == 'l' || c == 'L' || c == 'w') {
			if (nl < sizeof(name) - 2)
				name[nl++] = c;
			continue;
		}
		name[nl++] = c;
		name[nl] = '\0';
		break;
	}
	const pf_def *pd = pf_lookup(name);
	if (pd == NULL) {
		char msg[40];
		dt_snprintf(msg, sizeof(msg), "is undefined: %%%s", name);
		pf_syntax(pp, msg);
	}
	__builtin_memcpy(cv->cv_name, name, nl + 1);
	cv->cv_kind = cv->cv_flags & DT_PF_AGG ? DT_CONV_AGG : pd->pd_kind;
	cv->cv_ofmt = pd->pd_ofmt;
	cv->cv_star_width = (cv->cv_flags & DT_PF_DYNW) != 0;
	cv->cv_star_prec = (cv->cv_flags & DT_PF_DYNP) != 0;
	cv->cv_textlen = (uint16_t)(i + 1);
	size_t n = i < sizeof(cv->cv_spec) - 2 ? i :
	    sizeof(cv->cv_spec) - 2;
	cv->cv_spec[0] = '%';
	__builtin_memcpy(cv->cv_spec + 1, p, n);
	return i;
}

/* ---- pass 2: checking arguments ---- */

typedef struct pf_state {
	dt_ctx *pf_ctx;
	dt_node *pf_call;
	const char *pf_fname;
	dt_node *pf_arg;		/* next value argument */
	uint32_t pf_used;		/* value arguments taken so far */
	uint32_t pf_conv;		/* conversion number (1-based) */
	bool pf_printa;
	uint32_t pf_nkeys;		/* printa: keys left */
	const dt_keytype *pf_keys;	/* printa: the next key */
	bool pf_count;			/* printa: the aggregation is count() */
} pf_state;

static bool pf_int_ok(const dt_type *t, pf_check ck)
{
	if (!dt_type_isint(t))
		return false;
	switch (ck) {
	case PF_CSI: return (t->ty_size <= 4);
	case PF_SINT2: return (t->ty_size == 2 && t->ty_signed);
	case PF_UINT2: return (t->ty_size == 2 && !t->ty_signed);
	case PF_INT2: return (t->ty_size == 2);
	case PF_SINT4: return (t->ty_size == 4 && t->ty_signed);
	case PF_SINT8: return (t->ty_size == 8 && t->ty_signed);
	case PF_UINT8: return (t->ty_size == 8 && !t->ty_signed);
	case PF_INT8: case PF_TIME: return (t->ty_size == 8);
	default: return (true);
	}
}

/* pf_type_ok: may an argument of type t go with check ck? */
static bool pf_type_ok(pf_check ck, const dt_type *t)
{
	switch (ck) {
	case PF_STR:
		return (dt_type_isstring(t) || dt_type_isstrcompat(t) ||
		    (t->ty_kind == DT_TK_ARRAY && t->ty_base != NULL &&
		    t->ty_base->ty_size == 1));
	case PF_ADDR:		/* (DTrace's func() values may be integers) */
	case PF_KADDR:
		return (dt_type_isint(t) || t->ty_kind == DT_TK_PTR ||
		    t->ty_kind == DT_TK_SYMADDR);
	case PF_STACK:
		return t->ty_kind == DT_TK_STACK;
	case PF_FLOAT:
		return t->ty_kind == DT_TK_FLOAT;
	case PF_NEVER:
		return false;
	default:
		return pf_int_ok(t, ck);
	}
}

/* pf_key_type: a dt_type standing for a printa key, for the checks. */
static void pf_key_type(const dt_keytype *kt, dt_type *t)
{
	__builtin_memset(t, 0, sizeof(*t));
	t->ty_kind = DT_TK_INT;
	t->ty_size = kt->kt_size ? kt->kt_size : 8;
	t->ty_signed = kt->kt_signed;
	if (kt->kt_string) {
		t->ty_kind = DT_TK_STRING;
		t->ty_name = "string";
	} else if (kt->kt_kind == DT_KEY_STACK ||
	    kt->kt_kind == DT_KEY_USTACK) {
		t->ty_kind = DT_TK_STACK;
		t->ty_name = "stack";
	} else if (kt->kt_kind == DT_KEY_SYM || kt->kt_kind == DT_KEY_MOD ||
	    kt->kt_kind >= DT_KEY_USYM) {
		t->ty_kind = DT_TK_SYMADDR;
		t->ty_name = "_symaddr";
	} else {
		static const char *const sn[] = { "char", "short", "int",
		    "int64_t" }, *const un[] = { "uchar_t", "ushort_t",
		    "uint_t", "uint64_t" };
		int k = t->ty_size == 1 ? 0 : t->ty_size == 2 ? 1 :
		    t->ty_size == 4 ? 2 : 3;
		t->ty_name = t->ty_signed ? sn[k] : un[k];
	}
}

/*
 * pf_next: the next value the conversion takes (printa: the next key as a
 * type in *tmp), or NULL when there is none.
 */
static const dt_type *pf_next(pf_state *s, dt_type *tmp, dt_node **argp)
{
	*argp = NULL;
	if (s->pf_printa) {
		if (s->pf_nkeys == 0)
			return NULL;
		pf_key_type(s->pf_keys++, tmp);
		s->pf_nkeys--;
		s->pf_used++;
		return tmp;
	}
	if (s->pf_arg == NULL)
		return NULL;
	*argp = s->pf_arg;
	s->pf_arg = s->pf_arg->n_next;
	s->pf_used++;
	return (*argp)->n_type;
}

static void pf_type_text(const dt_type *t, const dt_node *arg, char *b, size_t n)
{
	if (arg != NULL && arg->n_kind == DT_N_AGG)
		dt_snprintf(b, n, "aggregation");
	else
		dt_type_name(t, b, n);
}

/* The dynamic width (dyn "*") or precision (".*") of conversion cv. */
static void pf_check_dyn(pf_state *s, const dt_conv *cv, const char *dyn)
{
	dt_type tmp;
	dt_node *arg;
	const dt_type *t = pf_next(s, &tmp, &arg);
	char b[64];
	if (t == NULL)
		dt_error_node(s->pf_ctx, s->pf_call, "D_PRINTF_DYN_PROTO",
		    "%s( ) prototype mismatch: conversion #%u (%%%s) is "
		    "missing a corresponding \"%s\" argument", s->pf_fname,
		    s->pf_conv, cv->cv_name, dyn);
	if (!dt_type_isint(t) || (arg != NULL && arg->n_kind == DT_N_AGG)) {
		pf_type_text(t, arg, b, sizeof(b));
		dt_error_node(s->pf_ctx, s->pf_call, "D_PRINTF_DYN_TYPE",
		    "%s( ) argument #%u is incompatible with conversion #%u "
		    "prototype:\n\tconversion: %% %s %s\n\t prototype: int\n"
		    "\t  argument: %s", s->pf_fname, s->pf_used + 1,
		    s->pf_conv, dyn, cv->cv_name, b);
	}
}

static void pf_check_conv(pf_state *s, const dt_conv *cv)
{
	const pf_def *pd = pf_lookup(cv->cv_name);
	char b[64], what[32];
	dt_type tmp;
	dt_node *arg = NULL;
	const dt_type *t;

	if (cv->cv_kind == DT_CONV_PCT)
		return;
	if (cv->cv_flags & DT_PF_DYNW)
		pf_check_dyn(s, cv, "*");
	if (cv->cv_flags & DT_PF_DYNP)
		pf_check_dyn(s, cv, ".*");
	if (cv->cv_flags & DT_PF_AGG) {
		if (!s->pf_printa)
			dt_error_node(s->pf_ctx, s->pf_call,
			    "D_PRINTF_AGG_CONV", "%%@ conversion requires an "
			    "aggregation and is not for use with %s( )",
			    s->pf_fname);
		__builtin_memset(&tmp, 0, sizeof(tmp));
		tmp.ty_kind = DT_TK_INT;
		tmp.ty_size = 8;
		tmp.ty_signed = !s->pf_count;
		tmp.ty_name = s->pf_count ? "uint64_t" : "int64_t";
		t = &tmp;
		dt_snprintf(what, sizeof(what), "aggregating action");
	} else {
		t = pf_next(s, &tmp, &arg);
		if (t == NULL)
			dt_error_node(s->pf_ctx, s->pf_call,
			    "D_PRINTF_ARG_PROTO", "%s( ) prototype mismatch: "
			    "conversion #%u (%%%s) is missing a corresponding "
			    "value argument", s->pf_fname, s->pf_conv,
			    cv->cv_name);
		dt_snprintf(what, sizeof(what), "argument #%u",
		    s->pf_used + 1);
	}
	if ((arg != NULL && arg->n_kind == DT_N_AGG) ||
	    !pf_type_ok(pd->pd_check, t)) {
		pf_type_text(t, arg, b, sizeof(b));
		dt_error_node(s->pf_ctx, s->pf_call, "D_PRINTF_ARG_TYPE",
		    "%s( ) %s is incompatible with conversion #%u prototype:"
		    "\n\tconversion: %%%s\n\t prototype: %s\n\t  argument: %s",
		    s->pf_fname, what, s->pf_conv, cv->cv_name, pd->pd_proto,
		    b);
	}
	if (pd->pd_check == PF_STR && arg != NULL)	/* char *, char [n] */
		dt_sema_string_inplace(s->pf_ctx, arg);
}

/* printa's first aggregation, for its keys and function. */
static void pf_printa_agg(dt_ctx *ctx, dt_node *args, pf_state *s)
{
	char key[80];
	if (args == NULL)
		return;
	dt_snprintf(key, sizeof(key), "@%s", args->n_str);
	dt_ident *id = dt_ident_lookup(&ctx->c_globals, key);
	if (id == NULL)
		return;
	const dt_aggdesc *ag = &ctx->c_prog->dp_aggs[id->id_aggidx];
	s->pf_nkeys = ag->ag_nkeys;
	s->pf_keys = ag->ag_keys;
	s->pf_count = ag->ag_func == DT_AGG_COUNT;
}

/* Pass 1: every conversion of f, parsed. */
static void pf_parse_all(dt_ctx *ctx, dt_node *call, const char *f, dt_fmtdesc *fd)
{
	pf_parse pp = { ctx, call, 0 };
	uint32_t cap = 0;
	for (const char *p = f; *p != '\0'; p++) {
		if (*p != '%')
			continue;
		fd->fd_convs = dt_grow(ctx, fd->fd_convs, fd->fd_nconvs, &cap,
		    sizeof(dt_conv));
		dt_conv *cv = &fd->fd_convs[fd->fd_nconvs];
		__builtin_memset(cv, 0, sizeof(*cv));
		pp.pp_conv++;
		p += pf_parse_conv(&pp, p + 1, cv);
		fd->fd_nconvs++;
	}
}

/*
 * Parse `fmt` (a string constant node) for the call `call` to fname with
 * value arguments starting at `args` (printa: the aggregations).  Adds the
 * format to the program and returns its index.
 */
int dt_printf_create(dt_ctx *ctx, dt_node *call, const char *fname,
                     dt_node *fmt, dt_node *args, bool printa)
{
	if (fmt->n_kind != DT_N_STR) {
		char b[64];
		dt_type_name(fmt->n_type, b, sizeof(b));
		dt_error_node(ctx, call, "D_PRINTF_ARG_FMT", "%s( ) argument "
		    "#1 is incompatible with prototype:\n\tprototype: string "
		    "constant\n\t argument: %s", fname, b);
	}
	const char *f = fmt->n_str;
	dt_fmtdesc fd = { f, NULL, 0, printa };
	pf_parse_all(ctx, call, f, &fd);
	if (*f == '\0' && !dt_streq(fname, "freopen"))	/* freopen(""): stdout */
		dt_error_node(ctx, call, "D_PRINTF_FMT_EMPTY", "%s( ) format "
		    "string is empty", fname);
	pf_state s = { ctx, call, fname, printa ? NULL : args, 0, 0, printa,
	    0, NULL, false };
	if (printa)
		pf_printa_agg(ctx, args, &s);
	for (uint32_t i = 0; i < fd.fd_nconvs; i++) {
		s.pf_conv = i + 1;
		pf_check_conv(&s, &fd.fd_convs[i]);
	}
	if (!printa && s.pf_arg != NULL)
		dt_error_node(ctx, call, "D_PRINTF_ARG_EXTRA", "%s( ) prototype "
		    "mismatch: only %u arguments required by this format "
		    "string", fname, s.pf_used);
	return (int)dt_format_add(ctx, &fd);
}
