/*
 * dlang/dt_provider.c: provider definitions, and the C header dtrace -h
 * makes of them.
 *
 * A user program's USDT probes are declared in D as in DTrace:
 *
 *   provider shop {
 *           probe order__start(int, char *);
 *           probe order__done(int);
 *   };
 *
 * The definition declares names only: it adds no clause and enables
 * nothing (a file of definitions alone compiles), and the program's
 * probes come from the program itself (userland/libc/usdt.h: each site
 * leaves its record in the binary's `sonde_usdt` section, read by
 * trace/prov_pid.c).  What a definition is for is `dtrace -h`, which
 * writes the header a C program includes to fire them, with DTrace's
 * macro names: the provider and the probe in capitals, the probe's "__"
 * written "_",
 *
 *   #define SHOP_ORDER_START(arg0, arg1) DTRACE_PROBE2(shop, order__start, arg0, arg1)
 *   #define SHOP_ORDER_START_ENABLED() DTRACE_IS_ENABLED(shop, order__start)
 *
 * so the probe is shop<PID>:<program>:<function>:order-start.  The macros
 * are usdt.h's, so a site costs what usdt.h says (a NOP, or a cleared
 * register for the test).  Arguments: up to six (usdt.h's DTRACE_PROBE6;
 * more is D_PROV_PRARGLEN), integers or pointers, each a comment in the
 * header with its D type.  A probe declared twice in one provider is
 * D_PROV_PRDUP.  Not parsed: translated argument lists (`probe p(a) :
 * (b)`), `#pragma D attributes` and stability of providers.
 *
 * Order: parsing (called by dt_parse.c's item), then writing the header.
 *
 * Pure and freestanding; the header is written into a caller's buffer.
 *
 * Tests: tests/unit/dlang_provider_test.c; tests/d/err.D_PROV_*.d;
 *        tests/e2e/test_usdt.py (-h; a program built from the header
 *        fires its probes)
 */
#include "dlang/dt.h"

#define PROV_MAXARGS 6			/* usdt.h's DTRACE_PROBE6 */

/* The current token's kind. */
static dt_tokkind tok(dt_ctx *ctx)
{
	return ctx->c_tok.t_kind;
}

/* probe-args: '(' [ 'void' | type-name [ident] { ',' type-name [ident] } ] ')' */
static void probe_args(dt_ctx *ctx, dt_probedef *pr)
{
	char buf[96];
	uint32_t n = 0;

	dt_expect(ctx, DT_T_LPAR);
	while (tok(ctx) != DT_T_RPAR) {
		if (n > 0)
			dt_expect(ctx, DT_T_COMMA);
		if (!dt_starts_type(ctx))
			dt_syntax_error(ctx);
		dt_type *t = dt_parse_type(ctx);
		if (tok(ctx) == DT_T_IDENT)
			dt_next(ctx);			/* a parameter's name: unused */
		if (t->ty_kind == DT_TK_VOID && n == 0 && tok(ctx) == DT_T_RPAR)
			break;				/* (void) */
		if (n == PROV_MAXARGS)
			dt_error_tok(ctx, "D_PROV_PRARGLEN", "probe %s input "
			    "prototype exceeds %u parameters: %u params used",
			    pr->pr_name, PROV_MAXARGS, n + 1);
		dt_type_name(t, buf, sizeof(buf));
		pr->pr_args[n++] = dt_strdup(ctx, buf, dt_strlen(buf));
	}
	dt_expect(ctx, DT_T_RPAR);
	pr->pr_nargs = n;
}

/* probe: 'probe' identifier probe-args ';' */
static void probe_def(dt_ctx *ctx, dt_provdef *pv)
{
	dt_tok at = ctx->c_tok;
	if (tok(ctx) != DT_T_PROBE)
		dt_syntax_error(ctx);
	dt_next(ctx);
	const char *name = dt_ident_name(ctx);
	for (const dt_probedef *p = pv->pv_probes; p != NULL; p = p->pr_next)
		if (dt_strcmp(p->pr_name, name) == 0)
			dt_error_at(ctx, at.t_line, at.t_col, "D_PROV_PRDUP",
			    "probe %s:%s redeclared", pv->pv_name, name);
	dt_probedef *pr = dt_alloc(ctx, sizeof(*pr));
	pr->pr_name = name;
	probe_args(ctx, pr);
	if (tok(ctx) == DT_T_COLON)
		dt_error_tok(ctx, "D_SYNTAX", "translated probe arguments "
		    "are not supported by Sonde");
	if (tok(ctx) != DT_T_SEMI)
		dt_syntax_error(ctx);
	dt_next(ctx);
	dt_probedef **tail = &pv->pv_probes;
	while (*tail != NULL)
		tail = &(*tail)->pr_next;
	*tail = pr;
	pv->pv_nprobes++;
}

/* provider: 'provider' identifier '{' { probe } '}' ';' */
void dt_parse_provider(dt_ctx *ctx)
{
	dt_next(ctx);
	dt_provdef *pv = dt_alloc(ctx, sizeof(*pv));
	pv->pv_name = dt_ident_name(ctx);
	dt_expect(ctx, DT_T_LBRACE);
	while (!dt_accept(ctx, DT_T_RBRACE))
		probe_def(ctx, pv);
	if (tok(ctx) != DT_T_SEMI)
		dt_syntax_error(ctx);
	dt_provdef **tail = &ctx->c_prog->dp_providers;
	while (*tail != NULL)
		tail = &(*tail)->pv_next;
	*tail = pv;
}

/* ---- the header ---- */

struct hdr_out {
	char *buf;
	size_t len, used;		/* used may pass len: the size needed */
};

static void hdr_put(struct hdr_out *o, const char *s)
{
	for (; *s != '\0'; s++, o->used++)
		if (o->used + 1 < o->len)
			o->buf[o->used] = *s;
}

/* hdr_macro_name: PROVIDER_PROBE, "__" as "_", in capitals. */
static void hdr_macro_name(struct hdr_out *o, const char *prov, const char *probe)
{
	char name[2 * 64 + 2];
	size_t n = 0;

	for (const char *s = prov; *s != '\0' && n < 64; s++)
		name[n++] = (*s >= 'a' && *s <= 'z') ? (char)(*s - 32) : *s;
	name[n++] = '_';
	for (const char *s = probe; *s != '\0' && n < sizeof(name) - 1; s++) {
		if (s[0] == '_' && s[1] == '_')
			s++;
		name[n++] = (*s >= 'a' && *s <= 'z') ? (char)(*s - 32) : *s;
	}
	name[n] = '\0';
	hdr_put(o, name);
}

static void hdr_probe(struct hdr_out *o, const dt_provdef *pv, const dt_probedef *pr)
{
	char num[32];

	hdr_put(o, "\n/* ");
	hdr_put(o, pv->pv_name);
	hdr_put(o, ":::");
	hdr_put(o, pr->pr_name);
	hdr_put(o, "(");
	for (uint32_t i = 0; i < pr->pr_nargs; i++) {
		hdr_put(o, i ? ", " : "");
		hdr_put(o, pr->pr_args[i]);
	}
	hdr_put(o, ") */\n#define ");
	hdr_macro_name(o, pv->pv_name, pr->pr_name);
	hdr_put(o, "(");
	for (uint32_t i = 0; i < pr->pr_nargs; i++) {
		dt_snprintf(num, sizeof(num), "%sarg%u", i ? ", " : "", i);
		hdr_put(o, num);
	}
	dt_snprintf(num, sizeof(num), ") \\\n\tDTRACE_PROBE%u(", pr->pr_nargs);
	hdr_put(o, num);
	hdr_put(o, pv->pv_name);
	hdr_put(o, ", ");
	hdr_put(o, pr->pr_name);
	for (uint32_t i = 0; i < pr->pr_nargs; i++) {
		dt_snprintf(num, sizeof(num), ", (arg%u)", i);
		hdr_put(o, num);
	}
	hdr_put(o, ")\n#define ");
	hdr_macro_name(o, pv->pv_name, pr->pr_name);
	hdr_put(o, "_ENABLED() \\\n\tDTRACE_IS_ENABLED(");
	hdr_put(o, pv->pv_name);
	hdr_put(o, ", ");
	hdr_put(o, pr->pr_name);
	hdr_put(o, ")\n");
}

/* hdr_guard: the include guard's name: guard's letters and digits in capitals, others '_'. */
static void hdr_guard(struct hdr_out *o, const char *guard)
{
	char c[2] = { 0, 0 };

	hdr_put(o, "SONDE_USDT_");
	for (const char *s = guard; *s != '\0'; s++) {
		c[0] = (*s >= 'a' && *s <= 'z') ? (char)(*s - 32) :
		       ((*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')) ? *s : '_';
		hdr_put(o, c);
	}
}

size_t dt_header_write(const dt_prog *p, const char *guard, char *buf, size_t len)
{
	struct hdr_out o = { buf, len, 0 };

	hdr_put(&o, "/*\n * Generated by dtrace -h (Sonde) from provider definitions: do not edit.\n"
	    " * Each probe's macro fires it, its _ENABLED() macro tests whether it is\n"
	    " * enabled (userland/libc/usdt.h).\n */\n#ifndef ");
	hdr_guard(&o, guard);
	hdr_put(&o, "\n#define ");
	hdr_guard(&o, guard);
	hdr_put(&o, "\n\n#include \"userland/libc/usdt.h\"\n");
	for (const dt_provdef *pv = p->dp_providers; pv != NULL; pv = pv->pv_next)
		for (const dt_probedef *pr = pv->pv_probes; pr != NULL; pr = pr->pr_next)
			hdr_probe(&o, pv, pr);
	hdr_put(&o, "\n#endif\n");
	if (len > 0)
		buf[o.used < len ? o.used : len - 1] = '\0';
	return o.used;
}
