/*
 * dlang/dt_decl.c: types, identifiers and declarations.
 *
 * D's type system as Sonde implements it, without CTF: the C integer
 * types (and the int8_t..uint64_t, size_t, uintptr_t... typedefs), string,
 * void, pointers, arrays, and the struct/union/enum types and typedefs a
 * program declares itself.  Members are laid out with C's natural
 * alignment.  Identifiers (variables, inlines, enumerators, typedefs,
 * translators, aggregations) live in hash tables of the context.
 *
 * Order: identifier hash tables, type constructors and queries, tagged
 * types, declarations of variables, typedefs, inlines and translators.
 *
 * Tests: tests/d/err.D_DECL_*.d; tests/dlang/struct_decl.S; tests/d/types
 */
#include "dlang/dt.h"

/* ---- identifier hash tables ---- */

static uint32_t hash_name(const char *s)
{
	uint32_t h = 2166136261u;
	while (*s != '\0')
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h % DT_IDHASH;
}

dt_ident *dt_ident_lookup(dt_idhash *h, const char *name)
{
	for (dt_ident *id = h->ih_buckets[hash_name(name)]; id != NULL;
	    id = id->id_next)
		if (dt_streq(id->id_name, name))
			return id;
	return NULL;
}

dt_ident *dt_ident_insert(dt_ctx *ctx, dt_idhash *h, const char *name,
                          dt_identkind kind)
{
	dt_ident *id = dt_alloc(ctx, sizeof(*id));
	uint32_t b = hash_name(name);
	id->id_name = name;
	id->id_kind = kind;
	id->id_next = h->ih_buckets[b];
	h->ih_buckets[b] = id;
	return id;
}

/* ---- types ---- */

/* dt_type_new: a complete type of kind k, size and name, aligned as its size (at most 8). */
dt_type *dt_type_new(dt_ctx *ctx, dt_typekind k, uint32_t size, const char *name)
{
	dt_type *t = dt_alloc(ctx, sizeof(*t));
	t->ty_kind = k;
	t->ty_size = size;
	t->ty_align = size == 0 ? 1 : size > 8 ? 8 : size;
	t->ty_name = name;
	t->ty_complete = true;
	return t;
}

bool dt_type_isint(const dt_type *t)
{
	return t->ty_kind == DT_TK_INT || t->ty_kind == DT_TK_ENUM;
}

bool dt_type_isscalar(const dt_type *t)
{
	return dt_type_isint(t) || t->ty_kind == DT_TK_PTR;
}

bool dt_type_isstring(const dt_type *t)
{
	return t->ty_kind == DT_TK_STRING;
}

dt_type *dt_type_int(dt_ctx *ctx, uint32_t size, bool sign)
{
	switch (size) {
	case 1: return (sign ? ctx->c_t_schar : ctx->c_t_uchar);
	case 2: return (sign ? ctx->c_t_short : ctx->c_t_ushort);
	case 4: return (sign ? ctx->c_t_int : ctx->c_t_uint);
	default: return (sign ? ctx->c_t_long : ctx->c_t_ulong);
	}
}

static dt_type *int_type(dt_ctx *ctx, const char *name, uint32_t size, bool sign)
{
	dt_type *t = dt_type_new(ctx, DT_TK_INT, size, name);
	t->ty_signed = sign;
	return t;
}

dt_type *dt_type_ptr(dt_ctx *ctx, dt_type *base)
{
	dt_type *t = dt_type_new(ctx, DT_TK_PTR, 8, NULL);
	t->ty_base = base;
	return t;
}

dt_type *dt_type_array(dt_ctx *ctx, dt_type *base, uint32_t n)
{
	uint64_t size = (uint64_t)base->ty_size * n;
	if (size > 0x1000000)
		dt_error_at(ctx, ctx->c_tok.t_line, ctx->c_tok.t_col,
		    "D_DECL_ARRBIG", "array dimension too big");
	dt_type *t = dt_type_new(ctx, DT_TK_ARRAY, (uint32_t)size, NULL);
	t->ty_base = base;
	t->ty_nelem = n;
	t->ty_align = base->ty_align;
	return t;
}

/* C-style type names: "int", "char *", "struct foo", "int [4]". */
void dt_type_name(const dt_type *t, char *buf, size_t len)
{
	if (t == NULL) {
		dt_snprintf(buf, len, "<unknown>");
	} else if (t->ty_kind == DT_TK_PTR && t->ty_base != NULL &&
	    t->ty_base->ty_kind == DT_TK_FUNC && t->ty_base->ty_name != NULL) {
		/* a kernel function pointer: named whole (dt_ctf.c) */
		dt_snprintf(buf, len, "%s", t->ty_base->ty_name);
	} else if (t->ty_kind == DT_TK_PTR) {
		char b[128];
		dt_type_name(t->ty_base, b, sizeof(b));
		dt_snprintf(buf, len, "%s *", b);
	} else if (t->ty_kind == DT_TK_ARRAY) {
		char b[128];
		dt_type_name(t->ty_base, b, sizeof(b));
		dt_snprintf(buf, len, "%s [%u]", b, t->ty_nelem);
	} else {
		dt_snprintf(buf, len, "%s", t->ty_name != NULL ? t->ty_name :
		    "<anon>");
	}
}

static void typedef_add(dt_ctx *ctx, const char *name, dt_type *t)
{
	dt_ident *id = dt_ident_insert(ctx, &ctx->c_types, name,
	    DT_IDK_TYPEDEF);
	id->id_type = t;
}

/* The built-in types, and the typedefs every D program may use. */
void dt_types_init(dt_ctx *ctx)
{
	ctx->c_t_char = int_type(ctx, "char", 1, true);
	ctx->c_t_schar = int_type(ctx, "signed char", 1, true);
	ctx->c_t_uchar = int_type(ctx, "unsigned char", 1, false);
	ctx->c_t_short = int_type(ctx, "short", 2, true);
	ctx->c_t_ushort = int_type(ctx, "unsigned short", 2, false);
	ctx->c_t_int = int_type(ctx, "int", 4, true);
	ctx->c_t_uint = int_type(ctx, "unsigned int", 4, false);
	ctx->c_t_long = int_type(ctx, "long", 8, true);
	ctx->c_t_ulong = int_type(ctx, "unsigned long", 8, false);
	ctx->c_t_llong = int_type(ctx, "long long", 8, true);
	ctx->c_t_ullong = int_type(ctx, "unsigned long long", 8, false);
	ctx->c_t_string = dt_type_new(ctx, DT_TK_STRING, 0, "string");
	ctx->c_t_string->ty_size = ctx->c_prog->dp_strsize;
	ctx->c_t_void = dt_type_new(ctx, DT_TK_VOID, 0, "void");
	ctx->c_t_voidp = dt_type_ptr(ctx, ctx->c_t_void);
	ctx->c_t_stack = dt_type_new(ctx, DT_TK_STACK, 8, "stack");
	ctx->c_t_symaddr = dt_type_new(ctx, DT_TK_SYMADDR, 8, "_symaddr");
	ctx->c_t_aggfn = dt_type_new(ctx, DT_TK_AGGFN, 8, "dynamic variable");
	static const struct { const char *n; uint8_t sz; bool sign; } td[] = {
		{ "int8_t", 1, true }, { "int16_t", 2, true },
		{ "int32_t", 4, true }, { "int64_t", 8, true },
		{ "uint8_t", 1, false }, { "uint16_t", 2, false },
		{ "uint32_t", 4, false }, { "uint64_t", 8, false },
		{ "intptr_t", 8, true }, { "uintptr_t", 8, false },
		{ "size_t", 8, false }, { "ssize_t", 8, true },
		{ "off_t", 8, true }, { "pid_t", 4, true },
		{ "id_t", 4, true }, { "uid_t", 4, false }, { "gid_t", 4, false },
		{ "processorid_t", 4, true }, { "hrtime_t", 8, true },
		{ "time_t", 8, true }, { "uchar_t", 1, false },
		{ "ushort_t", 2, false }, { "uint_t", 4, false },
		{ "ulong_t", 8, false }, { "longlong_t", 8, true },
		{ "u_longlong_t", 8, false }, { "caddr_t", 8, false },
		/* the rest of illumos <sys/types.h>, which DTrace has in the kernel's CTF */
		{ "uint", 4, false }, { "ushort", 2, false },
		{ "ulong", 8, false }, { "unchar", 1, false },
		{ "u_int", 4, false }, { "u_short", 2, false },
		{ "u_long", 8, false }, { "u_char", 1, false },
		{ "mode_t", 4, false }, { "nlink_t", 4, false },
		{ "ino_t", 8, false }, { "daddr_t", 8, true },
		{ "diskaddr_t", 8, false }, { "clock_t", 8, true },
		{ "key_t", 4, true },
	};
	for (size_t i = 0; i < sizeof(td) / sizeof(td[0]); i++)
		typedef_add(ctx, td[i].n, int_type(ctx, td[i].n, td[i].sz,
		    td[i].sign));
	/* caddr_t is a pointer in C; D programs use it as an address */
	typedef_add(ctx, "boolean_t", int_type(ctx, "boolean_t", 4, true));
}

dt_type *dt_type_lookup(dt_ctx *ctx, const char *name)
{
	dt_ident *id = dt_ident_lookup(&ctx->c_types, name);
	if (id == NULL)
		id = dt_ctf_typename(ctx, name);	/* a kernel typedef */
	if (id == NULL || id->id_kind != DT_IDK_TYPEDEF)
		dt_error_tok(ctx, "D_TYPE_ERR", "invalid type name: %s", name);
	return id->id_type;
}

/* ---- tagged types: struct, union, enum ---- */

static const char *tag_key(dt_ctx *ctx, dt_tokkind kw, const char *tag)
{
	const char *pfx = kw == DT_T_STRUCT ? "struct " : kw == DT_T_UNION ?
	    "union " : "enum ";
	size_t a = dt_strlen(pfx), b = dt_strlen(tag);
	char *s = dt_alloc(ctx, a + b + 1);
	__builtin_memcpy(s, pfx, a);
	__builtin_memcpy(s + a, tag, b + 1);
	return s;
}

/*
 * The type named by "struct tag" etc.  defining: a body follows, so an
 * existing complete type of that tag is a redefinition.
 */
dt_type *dt_type_tagged(dt_ctx *ctx, dt_node *where, dt_tokkind kw, const char *tag,
                        bool defining)
{
	dt_typekind k = kw == DT_T_STRUCT ? DT_TK_STRUCT : kw == DT_T_UNION ?
	    DT_TK_UNION : DT_TK_ENUM;
	const char *key = tag_key(ctx, kw, tag != NULL ? tag : "<anon>");
	dt_ident *id = tag != NULL ? dt_ident_lookup(&ctx->c_types, key) :
	    NULL;
	/*
	 * struct, union and enum tags each have a name space of their own,
	 * as in DTrace (CTF keeps one per kind): struct s and union s are
	 * two types.
	 */
	/*
	 * A program's own definition of a tag the kernel has too (a library's
	 * translator named the kernel's struct buf) is the program's: D's
	 * types are in a name space of their own, the kernel's in its module's.
	 */
	if (id != NULL && defining && id->id_kernel)
		id = NULL;
	if (id != NULL) {
		if (id->id_type->ty_kind != k)
			dt_error_node(ctx, where, "D_DECL_TYPERED", "%s redeclared "
			    "as a different kind of type", key);
		if (defining && id->id_type->ty_complete)
			dt_error_node(ctx, where, "D_DECL_TYPERED", "type "
			    "redeclared: %s", key);
		return id->id_type;
	}
	dt_type *t = defining ? NULL : dt_ctf_tag(ctx, kw, tag);
	if (t != NULL) {		/* the kernel's (dt_ctf.c) */
		id = dt_ident_insert(ctx, &ctx->c_types, key, DT_IDK_SYMBOL);
		id->id_type = t;
		id->id_kernel = true;
		return t;
	}
	t = dt_type_new(ctx, k, k == DT_TK_ENUM ? 4 : 0, key);
	t->ty_complete = false;
	t->ty_signed = true;
	if (tag != NULL) {
		/* tags share the type table; "struct x" is never a word */
		id = dt_ident_insert(ctx, &ctx->c_types, key, DT_IDK_SYMBOL);
		id->id_type = t;
	}
	return t;
}

/* Is t complete, an array's elements (of every dimension) included, as C requires? */
static bool elem_complete(const dt_type *t)
{
	while (t->ty_kind == DT_TK_ARRAY && t->ty_base != NULL)
		t = t->ty_base;
	return t->ty_complete;
}

void dt_sou_member(dt_ctx *ctx, dt_node *where, dt_type *sou, const char *name,
                   dt_type *mt)
{
	dt_member **tail = &sou->ty_members;
	for (dt_member *m = sou->ty_members; m != NULL; m = m->m_next) {
		if (dt_streq(m->m_name, name))
			dt_error_node(ctx, where, "D_DECL_MNAME", "member name "
			    "%s redeclared in %s", name, sou->ty_name);
		tail = &m->m_next;
	}
	/* A string member (a translated struct's: devinfo_t's dev_name) is strsize bytes of characters. */
	if (mt->ty_kind == DT_TK_VOID || !elem_complete(mt))
		dt_error_node(ctx, where, "D_DECL_INCOMPLETE", "declaration "
		    "of member %s uses an incomplete or invalid type", name);
	dt_member *m = dt_alloc(ctx, sizeof(*m));
	m->m_name = name;
	m->m_type = mt;
	uint32_t al = mt->ty_align == 0 ? 1 : mt->ty_align;
	if (sou->ty_kind == DT_TK_STRUCT) {
		m->m_off = (sou->ty_size + al - 1) / al * al;
		sou->ty_size = m->m_off + mt->ty_size;
	} else if (mt->ty_size > sou->ty_size) {
		sou->ty_size = mt->ty_size;
	}
	if (al > sou->ty_align)
		sou->ty_align = al;
	*tail = m;
}

void dt_enum_member(dt_ctx *ctx, dt_node *where, dt_type *en, const char *name,
                    int64_t v)
{
	dt_ident *id = dt_ident_lookup(&ctx->c_globals, name);
	if (id != NULL)
		dt_error_node(ctx, where, "D_DECL_IDRED", "identifier "
		    "redeclared: %s", name);
	if (v != (int32_t)v)
		dt_error_node(ctx, where, "D_DECL_ENOFLOW", "enumerator %s "
		    "overflows the range of int", name);
	id = dt_ident_insert(ctx, &ctx->c_globals, name, DT_IDK_ENUMCONST);
	id->id_value = v;
	id->id_type = en;
}

void dt_sou_end(dt_ctx *ctx, dt_type *t)
{
	(void)ctx;
	if (t->ty_kind != DT_TK_ENUM && t->ty_align > 0)
		t->ty_size = (t->ty_size + t->ty_align - 1) / t->ty_align *
		    t->ty_align;
	if (t->ty_kind == DT_TK_ENUM)
		t->ty_align = 4;
	t->ty_complete = true;
}

/* ---- declarations ---- */

void dt_decl_typedef(dt_ctx *ctx, dt_node *where, const char *name, dt_type *t)
{
	dt_ident *k = dt_ident_lookup(&ctx->c_types, name);
	if (k != NULL && k->id_kernel) {	/* D's name space is its own */
		k->id_type = t;
		k->id_kernel = false;
		return;
	}
	if (dt_ident_lookup(&ctx->c_types, name) != NULL ||
	    dt_ident_lookup(&ctx->c_globals, name) != NULL ||
	    dif_builtin_lookup(name, dt_strlen(name)) != NULL ||
	    dt_func_lookup(ctx, name) != NULL)
		dt_error_node(ctx, where, "D_DECL_IDRED", "identifier "
		    "redeclared: %s", name);
	typedef_add(ctx, name, t);
}

static void check_var_type(dt_ctx *ctx, dt_node *where, dt_type *t, const char *name)
{
	if (t->ty_kind == DT_TK_VOID)
		dt_error_node(ctx, where, "D_DECL_VOIDOBJ", "cannot have void "
		    "object: %s", name);
	if (!elem_complete(t))
		dt_error_node(ctx, where, "D_DECL_INCOMPLETE", "declaration "
		    "of %s uses an incomplete type", name);
}

/* The same type, as a redeclaration must give it (DTrace: ctf_type_cmp). */
static bool type_same(const dt_type *a, const dt_type *b)
{
	if (a == b)
		return true;
	if (a == NULL || b == NULL || a->ty_kind != b->ty_kind)
		return false;
	switch (a->ty_kind) {
	case DT_TK_INT:
		return (a->ty_size == b->ty_size &&
		    a->ty_signed == b->ty_signed);
	case DT_TK_STRING: case DT_TK_VOID:
		return true;
	case DT_TK_PTR:
		return type_same(a->ty_base, b->ty_base);
	case DT_TK_ARRAY:
		return (a->ty_nelem == b->ty_nelem &&
		    type_same(a->ty_base, b->ty_base));
	default:
		return false;		/* struct, union, enum: by identity */
	}
}

/*
 * A variable declared again: DTrace accepts the very same declaration and
 * reports any other as D_DECL_IDRED, saying what each one was.
 */
static void var_redecl(dt_ctx *ctx, dt_node *where, dt_ident *id, dt_type *t,
                       dt_type **keys, uint32_t nkeys, bool arr)
{
	char a[64], b[64];
	const char *ck = arr ? "associative array" : "scalar";
	const char *pk = id->id_kind == DT_IDK_ARRAY ? "associative array" :
	    "scalar";
	if (arr != (id->id_kind == DT_IDK_ARRAY) ||
	    !type_same(t, id->id_type))
		dt_error_node(ctx, where, "D_DECL_IDRED", "identifier "
		    "redeclared: %s\n\t current: %s %s\n\tprevious: %s %s",
		    id->id_name, ck, dt_sema_tname(t, a, sizeof(a)), pk,
		    dt_sema_tname(id->id_type, b, sizeof(b)));
	if (!arr || !id->id_keys_known)
		return;
	for (uint32_t i = 0; i < nkeys && i < id->id_nkeys; i++)
		if (!type_same(keys[i], id->id_keys[i]))
			dt_error_node(ctx, where, "D_DECL_IDRED", "identifier "
			    "redeclared: %s\n\t current: %s, key #%u of type "
			    "%s\n\tprevious: %s, key #%u of type %s",
			    id->id_name, ck, i + 1, dt_sema_tname(keys[i], a,
			    sizeof(a)), pk, i + 1, dt_sema_tname(id->id_keys[i],
			    b, sizeof(b)));
	if (nkeys != id->id_nkeys)
		dt_error_node(ctx, where, "D_DECL_IDRED", "identifier "
		    "redeclared: %s\n\t current: %s of %s, tuple length "
		    "%u\n\tprevious: %s of %s, tuple length %u", id->id_name,
		    ck, dt_sema_tname(t, a, sizeof(a)), nkeys, pk,
		    dt_sema_tname(id->id_type, b, sizeof(b)), id->id_nkeys);
}

/*
 * Declare a variable: global ("int x;"), thread-local ("self int x;"),
 * clause-local ("this int x;"), possibly an associative array ("int
 * a[string, int];").  Declaring it again the same way changes nothing.
 */
void dt_decl_var(dt_ctx *ctx, dt_node *where, int scope, dt_type *t,
                 const char *name, dt_type **keys, uint32_t nkeys, bool arr)
{
	if (scope == DIF_SCOPE_GLOBAL && dif_builtin_lookup(name,
	    dt_strlen(name)) != NULL)
		dt_error_node(ctx, where, "D_DECL_IDRED", "built-in identifier "
		    "redeclared: %s", name);
	if (dt_ident_lookup(&ctx->c_types, name) != NULL)
		dt_error_node(ctx, where, "D_DECL_IDRED", "typedef identifier "
		    "redeclared: %s", name);
	if (arr && scope == DIF_SCOPE_LOCAL)
		dt_error_node(ctx, where, "D_DECL_LOCASSC", "associative arrays "
		    "may not be declared as local variables: %s", name);
	check_var_type(ctx, where, t, name);
	dt_ident *old = dt_sema_dvar_get(ctx, scope, name, NULL, false);
	if (old != NULL && (old->id_kind == DT_IDK_VAR ||
	    old->id_kind == DT_IDK_ARRAY)) {
		var_redecl(ctx, where, old, t, keys, nkeys, arr);
		return;
	}
	if (old != NULL)
		dt_error_node(ctx, where, "D_DECL_IDRED", "identifier "
		    "redeclared: %s", name);
	if (scope == DIF_SCOPE_GLOBAL && dt_func_lookup(ctx, name) != NULL)
		dt_error_node(ctx, where, "D_DECL_IDRED", "identifier "
		    "redeclared: %s", name);
	for (uint32_t i = 0; i < nkeys; i++)
		if (!dt_type_isscalar(keys[i]) && !dt_type_isstring(keys[i]) &&
		    !((keys[i]->ty_kind == DT_TK_STRUCT ||
		    keys[i]->ty_kind == DT_TK_UNION) && keys[i]->ty_complete))
			dt_error_node(ctx, where, "D_KEY_TYPE", "%s[ ] key #%u "
			    "is of an invalid type", name, i + 1);
	dt_ident *id = dt_sema_dvar_get(ctx, scope, name, t, arr);
	id->id_declared = true;
	id->id_line = where->n_line;
	if (arr)
		dt_sema_keys_define(ctx, id, keys, nkeys);
}

void dt_decl_inline(dt_ctx *ctx, dt_node *where, dt_type *t, const char *name,
                    dt_node *e, dt_node *params)
{
	/* only the D library may hide a built-in (dt_lib.c) */
	if (dt_ident_lookup(&ctx->c_globals, name) != NULL ||
	    (dif_builtin_lookup(name, dt_strlen(name)) != NULL &&
	    ctx->c_lib == NULL) || dt_func_lookup(ctx, name) != NULL ||
	    dt_ident_lookup(&ctx->c_types, name) != NULL)
		dt_error_node(ctx, where, "D_DECL_IDRED", "identifier "
		    "redeclared: %s", name);
	check_var_type(ctx, where, t, name);
	dt_ident *id = dt_ident_insert(ctx, &ctx->c_globals, name,
	    DT_IDK_INLINE);
	id->id_type = t;
	id->id_expr = e;
	id->id_line = where->n_line;
	id->id_params = params;
	/* type-check the body now (with parameters: at each use); it is re-cooked at each use */
	if (params == NULL)
		dt_inline_check(ctx, id, where);
}

void dt_decl_xlator(dt_ctx *ctx, dt_node *where, dt_type *out, dt_type *in,
                    const char *arg, dt_node *members)
{
	char key[256];
	char a[120], b[120];
	dt_type_name(out, a, sizeof(a));
	dt_type_name(in, b, sizeof(b));
	dt_snprintf(key, sizeof(key), "xlate %s < %s", a, b);
	/* DTrace's order: the redeclaration, then the output type */
	if (dt_ident_lookup(&ctx->c_types, key) != NULL)
		dt_error_node(ctx, where, "D_XLATE_REDECL", "translator from "
		    "%s to %s has already been declared", b, a);
	bool sou = out->ty_kind == DT_TK_STRUCT || out->ty_kind == DT_TK_UNION;
	if ((sou || out->ty_kind == DT_TK_ENUM) && !out->ty_complete)
		dt_error_node(ctx, where, "D_XLATE_SOU", "incomplete "
		    "struct/union/enum %s", a);
	if (!sou)
		dt_error_node(ctx, where, "D_XLATE_SOU", "translator output "
		    "type must be a struct or union");
	dt_ctf_members(ctx, out);	/* a kernel struct's, if it is one */
	for (dt_node *m = members; m != NULL; m = m->n_next) {
		dt_member *om = NULL;
		for (om = out->ty_members; om != NULL; om = om->m_next)
			if (dt_streq(om->m_name, m->n_str))
				break;
		if (om == NULL)
			dt_error_node(ctx, m, "D_XLATE_MEMB", "translator member "
			    "%s is not a member of %s", m->n_str, a);
		for (dt_node *p = members; p != m; p = p->n_next)
			if (dt_streq(p->n_str, m->n_str))
				dt_error_node(ctx, m, "D_XLATE_MEMB", "translator "
				    "member %s redefined", m->n_str);
	}
	dt_ident *id = dt_ident_insert(ctx, &ctx->c_types,
	    dt_strdup(ctx, key, dt_strlen(key)), DT_IDK_XLATOR);
	id->id_type = out;
	id->id_xlin = in;
	id->id_xlexprs = members;
	id->id_expr = dt_node_new(ctx, DT_N_VAR, &ctx->c_tok);
	id->id_expr->n_str = arg;
	id->id_line = where->n_line;
	if (ctx->c_lib == NULL)
		dt_xlator_check(ctx, id);
}

/* Find the translator to `out` from a value of type `in`. */
dt_ident *dt_xlator_lookup(dt_ctx *ctx, dt_type *out, dt_type *in)
{
	char key[256], a[120], b[120];
	dt_type_name(out, a, sizeof(a));
	dt_type_name(in, b, sizeof(b));
	dt_snprintf(key, sizeof(key), "xlate %s < %s", a, b);
	dt_ident *id = dt_ident_lookup(&ctx->c_types, key);
	if (id == NULL && dt_type_isint(in)) {
		/* an integer input converts to any integer translator */
		dt_snprintf(key, sizeof(key), "xlate %s < ", a);
		size_t kl = dt_strlen(key);
		for (uint32_t i = 0; i < DT_IDHASH && id == NULL; i++)
			for (dt_ident *x = ctx->c_types.ih_buckets[i];
			    x != NULL; x = x->id_next)
				if (x->id_kind == DT_IDK_XLATOR &&
				    __builtin_memcmp(x->id_name, key, kl) == 0 &&
				    dt_type_isint(x->id_xlin)) {
					id = x;
					break;
				}
	}
	return id;
}
