/*
 * dlang/dt_ctf.c: the kernel's types (CTF) as D types.
 *
 * With a CTF dict in the options (o_ctf: the kernel's, kernel/ctf.h), D
 * knows the kernel's types as DTrace does: `struct thread`, a kernel
 * typedef used as a type name, `` `sym `` as a typed lvalue, curthread as a
 * struct thread *, and fbt's args[] typed from the function's prototype
 * (other providers' arguments come through o_argtype, as type names).
 *
 * What it does: dt_ctf_import() turns a CTF type into a dt_type, once per
 * compilation (a table indexed by CTF id, in the arena, made on first
 * use).  A struct is entered in the table before its members are, so
 * types that point at each other end; typedef and qualifier chains are
 * followed a bounded number of times (kernel/ctf.c refuses nothing that a
 * loop could make, so this file bounds its own recursion: DT_CTF_DEPTH).
 *   - integers keep the CTF name ("long unsigned int"), size and sign; an
 *     integer typedef is the integer under the typedef's name, a const or
 *     volatile one says so ("volatile uint64_t"); other typedefs and
 *     qualifiers are their base type
 *   - bit-fields become D bit-fields of the smallest power-of-two bytes
 *     that hold their bits, with ty_bitoff the shift to them
 *   - an anonymous struct or union member contributes its members
 *   - a forward declaration is the complete type of that name if the dict
 *     has one, else an incomplete struct
 * What it does not: enumerators of kernel enums are not D identifiers;
 * integers wider than 8 bytes are opaque byte arrays.
 *
 * D's own declarations come first: a name the program or the D library
 * declares is never looked up in CTF.  Names CTF does not have are
 * remembered per compilation (c_ctfmiss), so the lexer's question "is this
 * word a type name?" costs one scan of the dict per new word.
 *
 * Context: compile time; arena allocation only; errors unwind.
 *
 * Tests: tests/d/ctf; tests/unit/kernel_ctf_test.c; tests/e2e/test_ctf.py
 */
#include "dlang/dt.h"
#include "kernel/ctf.h"

#define DT_CTF_DEPTH	24

typedef const ctf_dict_t *dt_ctf_dictp;

static const ctf_dict_t *ctf_of(dt_ctx *ctx)
{
	return ctx->c_opts != NULL ? ctx->c_opts->o_ctf : NULL;
}

static dt_type **memo_of(dt_ctx *ctx, const ctf_dict_t *d)
{
	if (ctx->c_ctftypes == NULL)
		ctx->c_ctftypes = dt_alloc(ctx, (size_t)(d->cd_ntypes + 1) *
		    sizeof(dt_type *));
	return ctx->c_ctftypes;
}

static dt_type *import(dt_ctx *ctx, const ctf_dict_t *d, uint32_t id,
    int depth);

static dt_type *import_int(dt_ctx *ctx, const ctf_typeinfo_t *ti)
{
	if (ti->ti_size == 0 || ti->ti_bits == 0)
		return ctx->c_t_void;
	if (ti->ti_size > 8)	/* __int128: bytes only */
		return (dt_type_array(ctx, ctx->c_t_uchar,
		    (uint32_t)ti->ti_size));
	dt_type *t = dt_alloc(ctx, sizeof(*t));
	*t = *dt_type_int(ctx, (uint32_t)ti->ti_size,
	    (ti->ti_enc & CTF_ENC_SIGNED) != 0);
	t->ty_name = ti->ti_name;
	return t;
}

static dt_type *import_float(dt_ctx *ctx, const ctf_typeinfo_t *ti)
{
	return (dt_type_new(ctx, DT_TK_FLOAT, (uint32_t)ti->ti_size,
	    ti->ti_name));
}

/* A bit-field of w bits at bit pos of its struct: (type, byte offset). */
static dt_type *bitfield(dt_ctx *ctx, dt_type *base, uint32_t w, uint64_t pos, uint32_t *off)
{
	uint32_t shift = (uint32_t)(pos % 8), n = 1;
	while (n * 8 < shift + w)
		n *= 2;
	if (n > 8 || !dt_type_isint(base))
		return NULL;
	dt_type *t = dt_alloc(ctx, sizeof(*t));
	*t = *dt_type_int(ctx, n, base->ty_signed);
	t->ty_name = base->ty_name;
	t->ty_bits = (uint8_t)w;
	t->ty_bitoff = (uint8_t)shift;
	*off = (uint32_t)(pos / 8);
	return t;
}

static void member_add(dt_ctx *ctx, dt_type *sou, dt_member ***tail, const char *name,
                       dt_type *mt, uint32_t off)
{
	dt_member *m = dt_alloc(ctx, sizeof(*m));
	m->m_name = name;
	m->m_type = mt;
	m->m_off = off;
	**tail = m;
	*tail = &m->m_next;
	if (mt->ty_align > sou->ty_align)
		sou->ty_align = mt->ty_align;
}

static void members_import(dt_ctx *ctx, const ctf_dict_t *d, uint32_t id, dt_type *sou,
                           dt_member ***tail, uint64_t base, int depth)
{
	const char *name;
	uint32_t mtid;
	uint64_t bit;
	for (uint32_t i = 0; ctf_member(d, id, i, &name, &mtid, &bit) == 0;
	    i++) {
		uint32_t rid = ctf_resolve(d, mtid);
		ctf_typeinfo_t mi;
		if (rid == 0 || ctf_type(d, rid, &mi) != 0)
			continue;
		if (name[0] == '\0' && (mi.ti_kind == CTF_KIND_STRUCT ||
		    mi.ti_kind == CTF_KIND_UNION) && depth < DT_CTF_DEPTH) {
			members_import(ctx, d, rid, sou, tail, base + bit,
			    depth + 1);
			continue;
		}
		dt_type *mt = import(ctx, d, mtid, depth + 1);
		uint32_t off = (uint32_t)((base + bit) / 8);
		bool slice = mi.ti_kind == CTF_KIND_SLICE;
		if (slice || (mi.ti_kind == CTF_KIND_INT &&
		    mi.ti_bits != mi.ti_size * 8)) {
			uint32_t w = mi.ti_bits;
			mt = bitfield(ctx, mt, w, base + bit +
			    (slice ? mi.ti_bitoff : 0), &off);
			if (mt == NULL)
				continue;
		}
		member_add(ctx, sou, tail, name, mt, off);
	}
}

static dt_type *import_sou(dt_ctx *ctx, const ctf_dict_t *d, uint32_t id,
                           const ctf_typeinfo_t *ti, int depth)
{
	bool un = ti->ti_kind == CTF_KIND_UNION;
	const char *tag = ti->ti_name[0] != '\0' ? ti->ti_name : "<anon>";
	size_t n = dt_strlen(tag);
	char *name = dt_alloc(ctx, n + 8);
	dt_snprintf(name, n + 8, "%s %s", un ? "union" : "struct", tag);
	dt_type *t = dt_type_new(ctx, un ? DT_TK_UNION : DT_TK_STRUCT,
	    (uint32_t)ti->ti_size, name);
	t->ty_align = 1;
	while (t->ty_align < 8 && ti->ti_size % (t->ty_align * 2) == 0)
		t->ty_align *= 2;	/* (the members' own, once known) */
	t->ty_ctfid = id;		/* members: dt_ctf_members, on use */
	(void)d;
	(void)depth;
	return t;
}

/*
 * A kernel struct's members, imported the first time something needs
 * them (a member reference, offsetof, a translator, print()).  Importing
 * them when the struct is imported would follow every pointer of the
 * kernel's type graph at once: recursion as deep as the graph (on a 16 KiB
 * kernel stack) and most of the dict in the arena.
 */
void dt_ctf_members(dt_ctx *ctx, dt_type *t)
{
	const dt_ctf_dictp d = ctf_of(ctx);
	if (d == NULL || t == NULL || t->ty_ctfid == 0)
		return;
	uint32_t id = t->ty_ctfid;
	t->ty_ctfid = 0;
	t->ty_align = 1;
	dt_member **tail = &t->ty_members;
	members_import(ctx, d, id, t, &tail, 0, 0);
}

/*
 * The same for t's embedded structs, unions and arrays of them (print()
 * prints those; it does not follow pointers).  C cannot embed a struct in
 * itself; a corrupt dict could, hence the depth bound.
 */
static void members_deep(dt_ctx *ctx, dt_type *t, int depth)
{
	while (t != NULL && t->ty_kind == DT_TK_ARRAY)
		t = t->ty_base;
	if (t == NULL || depth > DT_CTF_DEPTH || (t->ty_kind != DT_TK_STRUCT &&
	    t->ty_kind != DT_TK_UNION))
		return;
	dt_ctf_members(ctx, t);
	for (dt_member *m = t->ty_members; m != NULL; m = m->m_next)
		members_deep(ctx, m->m_type, depth + 1);
}

void dt_ctf_members_deep(dt_ctx *ctx, dt_type *t)
{
	members_deep(ctx, t, 0);
}

static dt_type *import_forward(dt_ctx *ctx, const ctf_dict_t *d, const ctf_typeinfo_t *ti,
                               int depth)
{
	uint32_t kind = ti->ti_ref == CTF_KIND_UNION ? CTF_KIND_UNION :
	    ti->ti_ref == CTF_KIND_ENUM ? CTF_KIND_ENUM : CTF_KIND_STRUCT;
	uint32_t full = ctf_lookup(d, kind, ti->ti_name);
	ctf_typeinfo_t fi;
	if (full != 0 && ctf_type(d, full, &fi) == 0 &&
	    fi.ti_kind != CTF_KIND_FORWARD)
		return import(ctx, d, full, depth + 1);
	size_t n = dt_strlen(ti->ti_name);
	char *name = dt_alloc(ctx, n + 8);
	dt_snprintf(name, n + 8, "struct %s", ti->ti_name);
	dt_type *t = dt_type_new(ctx, DT_TK_STRUCT, 0, name);
	t->ty_complete = false;
	return t;
}

static dt_type *import_typedef(dt_ctx *ctx, const ctf_dict_t *d, const ctf_typeinfo_t *ti,
                               int depth)
{
	dt_type *b = import(ctx, d, ti->ti_ref, depth + 1);
	if (b->ty_kind != DT_TK_INT || b->ty_bits != 0)
		return b;
	dt_type *t = dt_alloc(ctx, sizeof(*t));
	*t = *b;
	t->ty_name = ti->ti_name;
	return t;
}

/* const/volatile: the base type; an integer's name says it ("const char"). */
static dt_type *import_qual(dt_ctx *ctx, const ctf_dict_t *d, const ctf_typeinfo_t *ti,
                            int depth)
{
	dt_type *b = import(ctx, d, ti->ti_ref, depth + 1);
	if (b->ty_kind != DT_TK_INT || b->ty_bits != 0 || b->ty_name == NULL)
		return b;
	const char *q = ti->ti_kind == CTF_KIND_CONST ? "const " : "volatile ";
	size_t n = dt_strlen(q) + dt_strlen(b->ty_name) + 1;
	char *name = dt_alloc(ctx, n);
	dt_snprintf(name, n, "%s%s", q, b->ty_name);
	dt_type *t = dt_alloc(ctx, sizeof(*t));
	*t = *b;
	t->ty_name = name;
	return t;
}

static dt_type *import_kind(dt_ctx *ctx, const ctf_dict_t *d, uint32_t id,
                            const ctf_typeinfo_t *ti, int depth)
{
	switch (ti->ti_kind) {
	case CTF_KIND_INT:
		return import_int(ctx, ti);
	case CTF_KIND_FLOAT:
		return import_float(ctx, ti);
	case CTF_KIND_PTR:
		return dt_type_ptr(ctx, import(ctx, d, ti->ti_ref, depth + 1));
	case CTF_KIND_ARRAY: {
		dt_type *e = import(ctx, d, ti->ti_ref, depth + 1);
		if (e->ty_size == 0 || ti->ti_nelem > 0x1000000 / e->ty_size)
			return dt_type_array(ctx, e, 0);
		return dt_type_array(ctx, e, ti->ti_nelem);
	}
	case CTF_KIND_FUNC: {
		char nb[DT_ARGTYPELEN];	/* "void (*)(void *)", as pointers */
		ctf_type_name(d, id, nb, sizeof(nb));
		dt_type *t = dt_type_new(ctx, DT_TK_FUNC, 0,
		    dt_strdup(ctx, nb, dt_strlen(nb)));
		t->ty_base = import(ctx, d, ti->ti_ref, depth + 1);
		return t;
	}
	case CTF_KIND_STRUCT: case CTF_KIND_UNION:
		return import_sou(ctx, d, id, ti, depth);
	case CTF_KIND_ENUM: {
		size_t n = dt_strlen(ti->ti_name);
		char *name = dt_alloc(ctx, n + 8);
		dt_snprintf(name, n + 8, "enum %s", ti->ti_name);
		dt_type *t = dt_type_new(ctx, DT_TK_ENUM, (uint32_t)ti->ti_size,
		    name);
		t->ty_signed = true;
		return t;
	}
	case CTF_KIND_FORWARD:
		return import_forward(ctx, d, ti, depth);
	case CTF_KIND_TYPEDEF:
		return import_typedef(ctx, d, ti, depth);
	case CTF_KIND_CONST: case CTF_KIND_VOLATILE:
		return import_qual(ctx, d, ti, depth);
	case CTF_KIND_SLICE: case CTF_KIND_RESTRICT:
		return import(ctx, d, ti->ti_ref, depth + 1);
	default:
		return ctx->c_t_void;
	}
}

static dt_type *import(dt_ctx *ctx, const ctf_dict_t *d, uint32_t id, int depth)
{
	ctf_typeinfo_t ti;
	if (id == 0 || depth > DT_CTF_DEPTH || ctf_type(d, id, &ti) != 0)
		return ctx->c_t_void;
	dt_type **memo = memo_of(ctx, d);
	if (memo[id] != NULL)
		return memo[id];
	dt_type *t = import_kind(ctx, d, id, &ti, depth);
	if (ti.ti_kind != CTF_KIND_SLICE)	/* a slice's bits are per use */
		memo[id] = t;
	return t;
}

dt_type *dt_ctf_import(dt_ctx *ctx, uint32_t id)
{
	const ctf_dict_t *d = ctf_of(ctx);
	return d == NULL ? NULL : import(ctx, d, id, 0);
}

/* ---- names ---- */

dt_type *dt_ctf_tag(dt_ctx *ctx, dt_tokkind kw, const char *tag)
{
	const ctf_dict_t *d = ctf_of(ctx);
	if (d == NULL || tag == NULL)
		return NULL;
	uint32_t kind = kw == DT_T_STRUCT ? CTF_KIND_STRUCT :
	    kw == DT_T_UNION ? CTF_KIND_UNION : CTF_KIND_ENUM;
	uint32_t id = ctf_lookup(d, kind, tag);
	if (id == 0)
		return NULL;
	return import(ctx, d, id, 0);
}

/*
 * The lexer's question: is word a kernel typedef?  If so it becomes a D
 * typedef of this compilation (so the parser finds it like any other) and
 * its ident is returned; else NULL, remembered.
 */
dt_ident *dt_ctf_typename(dt_ctx *ctx, const char *word)
{
	const ctf_dict_t *d = ctf_of(ctx);
	if (d == NULL || dt_ident_lookup(&ctx->c_ctfmiss, word) != NULL)
		return NULL;
	uint32_t id = ctf_lookup(d, CTF_KIND_TYPEDEF, word);
	if (id == 0 || dt_ident_lookup(&ctx->c_globals, word) != NULL ||
	    dif_builtin_lookup(word, dt_strlen(word)) != NULL ||
	    dt_func_lookup(ctx, word) != NULL) {
		(void)dt_ident_insert(ctx, &ctx->c_ctfmiss, word, DT_IDK_VAR);
		return NULL;
	}
	dt_ident *t = dt_ident_insert(ctx, &ctx->c_types, word,
	    DT_IDK_TYPEDEF);
	t->id_type = import(ctx, d, id, 0);
	t->id_kernel = true;
	return t;
}

/* A base type named as CTF names it ("long unsigned int"), or NULL. */
dt_type *dt_ctf_basetype(dt_ctx *ctx, const char *name)
{
	const ctf_dict_t *d = ctf_of(ctx);
	uint32_t id = d == NULL ? 0 : ctf_lookup(d, CTF_KIND_INT, name);
	return id == 0 ? NULL : import(ctx, d, id, 0);
}

/* The type of kernel function or variable name, or NULL. */
dt_type *dt_ctf_var(dt_ctx *ctx, const char *name)
{
	const ctf_dict_t *d = ctf_of(ctx);
	uint32_t id = d == NULL ? 0 : ctf_var(d, name);
	return id == 0 ? NULL : import(ctx, d, id, 0);
}

/* ---- types named by text: providers' argument types ---- */

static dt_type *parse_base(dt_ctx *ctx, const char *base)
{
	dt_ident *id = dt_ident_lookup(&ctx->c_types, base);
	if (id != NULL && id->id_type != NULL)
		return id->id_type;	/* D's typedefs and "struct x" tags */
	static const struct { const char *pfx; dt_tokkind kw; } tags[] = {
		{ "struct ", DT_T_STRUCT }, { "union ", DT_T_UNION },
		{ "enum ", DT_T_ENUM },
	};
	for (size_t i = 0; i < 3; i++) {
		size_t n = dt_strlen(tags[i].pfx);
		if (__builtin_memcmp(base, tags[i].pfx, n) == 0)
			return dt_ctf_tag(ctx, tags[i].kw, base + n);
	}
	dt_type *t = dt_ctf_basetype(ctx, base);
	if (t != NULL)
		return t;
	id = dt_ctf_typename(ctx, base);
	return id != NULL ? id->id_type : NULL;
}

/*
 * A type named by text as C writes it ("struct thread *", "const char *",
 * "uint64_t", "int (*)(void *)"): D's names first, then the kernel's.
 * A function pointer is a void *.  NULL if a name is unknown.
 */
dt_type *dt_ctf_parse(dt_ctx *ctx, const char *text)
{
	char buf[128];
	size_t n = dt_strlen(text);
	uint32_t stars = 0;
	for (size_t i = 0; i < n; i++)
		if (text[i] == '(')
			return ctx->c_t_voidp;
	if (n >= sizeof(buf))
		return NULL;
	__builtin_memcpy(buf, text, n + 1);
	while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '*'))
		stars += buf[--n] == '*';
	buf[n] = '\0';
	char *b = buf;
	for (;;) {
		if (__builtin_memcmp(b, "const ", 6) == 0)
			b += 6;
		else if (__builtin_memcmp(b, "volatile ", 9) == 0)
			b += 9;
		else
			break;
	}
	dt_type *t = parse_base(ctx, dt_strdup(ctx, b, dt_strlen(b)));
	while (t != NULL && stars-- > 0)
		t = dt_type_ptr(ctx, t);
	return t;
}

static _Noreturn void arg_error(dt_ctx *ctx, const dt_node *n, const dt_probedesc *pd, int rc,
                                int64_t i)
{
	if (rc == DT_ARGTYPE_UNSTABLE)
		dt_error_node(ctx, n, "D_ARGS_MULTI", "args[ ] may not be "
		    "referenced because probe description %s:%s:%s:%s matches "
		    "an unstable set of probes", pd->pd_prov, pd->pd_mod,
		    pd->pd_func, pd->pd_name);
	dt_error_node(ctx, n, "D_ARGS_IDX", "index %lld is out of range for "
	    "%s:%s:%s:%s args[ ]", (long long)i, pd->pd_prov, pd->pd_mod,
	    pd->pd_func, pd->pd_name);
}

/*
 * args[i]'s type in the clause being compiled: the type every one of its
 * probe descriptions gives argument i (o_argtype), if they agree and it is
 * a scalar; else NULL (args[i] stays an int64_t).  As DTrace: probes that
 * type their arguments differently are D_ARGS_MULTI, an index past a typed
 * probe's arguments D_ARGS_IDX.
 */
/*
 * The clause's probes' argument i: 0 with its native type, translated
 * type ("" if none) and native argument, if every description agrees.
 */
static int arg_query(dt_ctx *ctx, const dt_node *n, int64_t i, char *native,
                     char *xlate, int *map)
{
	const dt_opts *o = ctx->c_opts;
	const dt_clause *cl = ctx->c_cl.cs_clause;
	char nb[DT_ARGTYPELEN], xb[DT_ARGTYPELEN];
	int m;
	if (o == NULL || o->o_argtype == NULL || cl == NULL ||
	    cl->cl_nprobes == 0 || i < 0 || i > 9)
		return -1;
	for (uint32_t k = 0; k < cl->cl_nprobes; k++) {
		char *nt = k == 0 ? native : nb, *xt = k == 0 ? xlate : xb;
		nt[0] = xt[0] = '\0';
		int rc = o->o_argtype(o->o_argtype_arg, &cl->cl_probes[k],
		    (int)i, nt, xt, k == 0 ? map : &m);
		if (rc == DT_ARGTYPE_UNSTABLE || rc == DT_ARGTYPE_NOARG)
			arg_error(ctx, n, &cl->cl_probes[k], rc, i);
		if (rc != 0)
			return -1;
		if (k > 0 && (!dt_streq(native, nb) || !dt_streq(xlate, xb) ||
		    m != *map))
			return -1;
	}
	return 0;
}

dt_type *dt_ctf_arg(dt_ctx *ctx, const dt_node *n, int64_t i)
{
	char native[DT_ARGTYPELEN], xlate[DT_ARGTYPELEN];
	int map = (int)i;
	if (arg_query(ctx, n, i, native, xlate, &map) != 0 || xlate[0] != '\0')
		return NULL;		/* a translated one: dt_ctf_xlate_arg */
	dt_type *t = dt_ctf_parse(ctx, native);
	return t != NULL && dt_type_isscalar(t) ? t : NULL;
}

/*
 * args[i]->m where the probes pass argument i translated (sched's
 * lwpsinfo_t *): n (the uncooked args[i]) becomes the uncooked
 * xlate<T *>((native *)argN), whose members the translator gives.  Any
 * other n is returned as it is.
 */
dt_node *dt_ctf_xlate_arg(dt_ctx *ctx, dt_node *n)
{
	char native[DT_ARGTYPELEN], xlate[DT_ARGTYPELEN], var[8];
	int map = 0;
	if (n->n_kind != DT_N_INDEX || n->n_a == NULL ||
	    n->n_a->n_kind != DT_N_VAR || !dt_streq(n->n_a->n_str, "args") ||
	    n->n_args == NULL || n->n_args->n_next != NULL ||
	    n->n_args->n_kind != DT_N_INT)
		return n;
	int64_t i = n->n_args->n_ival;
	if (arg_query(ctx, n, i, native, xlate, &map) != 0 ||
	    xlate[0] == '\0' || map < 0 || map > 9)
		return n;
	dt_type *nt = dt_ctf_parse(ctx, native), *xt = dt_ctf_parse(ctx, xlate);
	if (nt == NULL || xt == NULL)
		return n;
	dt_node *v = dt_alloc(ctx, sizeof(*v));
	*v = *n->n_a;			/* "args" -> "argN" */
	v->n_next = NULL;
	dt_snprintf(var, sizeof(var), "arg%d", map);
	v->n_str = dt_strdup(ctx, var, dt_strlen(var));
	dt_node *c = dt_alloc(ctx, sizeof(*c));
	*c = *n;
	c->n_kind = DT_N_CAST;
	c->n_ctype = nt;
	c->n_a = v;
	c->n_args = NULL;
	c->n_next = NULL;
	dt_node *x = dt_alloc(ctx, sizeof(*x));
	*x = *n;
	x->n_kind = DT_N_XLATE;
	x->n_ctype = xt;
	x->n_a = c;
	x->n_args = NULL;
	return x;
}
