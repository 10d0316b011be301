/*
 * kernel/ctf.c: a bounded reader of one CTF v3 dict (see kernel/ctf.h for
 * the format and the promises).
 *
 * Order: little readers that never read outside the buffer; ctf_open's
 * checks (header, sections, one pass over the type records to size and
 * index them, a second over every reference they make, then the
 * variables); the accessors; lookups by name; and C names of types.
 *
 * Every read of the dict goes through rd32() with an offset already checked
 * against its section's length, so a corrupt dict can make ctf_open say no
 * but cannot make it (or anything after it) read past the buffer.
 *
 * Tests: tests/unit/kernel_ctf_test.c; tests/d/ctf
 */
#include "kernel/ctf.h"

#define CTF_MAGIC	0xdff2
#define CTF_MAGIC_BE	0xf2df		/* the magic of a big-endian dict */
#define CTF_VERSION3	4
#define CTF_HDRLEN	52		/* preamble + 12 uint32s */
#define CTF_F_COMPRESS	0x1
#define CTF_F_KNOWN	0xf
#define CTF_LSIZE	0xffffffffu	/* a large type's size sentinel */
#define CTF_LSTRUCT	536870912u	/* members are large from this size */
#define CTF_MAXDEPTH	32		/* typedef/qualifier chains followed */
#define CTF_PARENT_MAX	0x7fffffffu	/* above: a child dict's type */

/* header word i (0 = parent label .. 11 = string length) */
enum { H_PARLABEL, H_PARNAME, H_CUNAME, H_LBL, H_OBJT, H_FUNC, H_OBJTIDX,
       H_FUNCIDX, H_VAR, H_TYPE, H_STR, H_STRLEN, H_N };

static uint32_t
rd32(const uint8_t *p)
{
	return ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24);
}

static bool
ctf_streq(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return (*a == *b);
}

static int
ctf_strcmp(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return ((int)(unsigned char)*a - (int)(unsigned char)*b);
}

static int
refuse(ctf_dict_t *d, const char *why)
{
	d->cd_err = why;
	return (-1);
}

/* A name offset is good if it is in-dict (not the ELF string table's). */
static bool
name_ok(const ctf_dict_t *d, uint32_t name)
{
	return ((name >> 31) == 0 && name < d->cd_strlen);
}

static const char *
name_of(const ctf_dict_t *d, uint32_t name)
{
	return (name_ok(d, name) ? d->cd_strs + name : "");
}

/* ---- ctf_open: the header and the sections ---- */

static int
sections_check(ctf_dict_t *d, const uint8_t *b, size_t len, uint32_t *h)
{
	for (int i = 0; i < H_N; i++)
		h[i] = rd32(b + 4 + 4 * i);
	if (h[H_PARNAME] != 0 || h[H_PARLABEL] != 0)
		return (refuse(d, "a child dict (it needs its parent)"));
	for (int i = H_LBL; i < H_STR; i++)
		if (h[i] > h[i + 1])
			return (refuse(d, "sections out of order"));
	size_t body = len - CTF_HDRLEN;
	if (h[H_STR] > body || h[H_STRLEN] > body - h[H_STR])
		return (refuse(d, "sections past the end of the dict"));
	if ((h[H_TYPE] - h[H_VAR]) % 8 != 0 || h[H_TYPE] % 4 != 0)
		return (refuse(d, "misaligned variable or type section"));
	if (h[H_STRLEN] == 0 || b[CTF_HDRLEN + h[H_STR] + h[H_STRLEN] - 1] != 0)
		return (refuse(d, "string section not NUL-terminated"));
	const uint8_t *s = b + CTF_HDRLEN;
	d->cd_vars = s + h[H_VAR];
	d->cd_nvars = (h[H_TYPE] - h[H_VAR]) / 8;
	d->cd_types = s + h[H_TYPE];
	d->cd_typelen = h[H_STR] - h[H_TYPE];
	d->cd_strs = (const char *)s + h[H_STR];
	d->cd_strlen = h[H_STRLEN];
	d->cd_size = len;
	return (0);
}

/* ---- ctf_open: the type records ---- */

static bool
kind_sized(uint32_t kind)
{
	return (kind == CTF_KIND_INT || kind == CTF_KIND_FLOAT ||
	    kind == CTF_KIND_STRUCT || kind == CTF_KIND_UNION ||
	    kind == CTF_KIND_ENUM || kind == CTF_KIND_SLICE);
}

/* The record's fixed header length (12 or 20 bytes). */
static uint32_t
rec_hdrlen(const uint8_t *r)
{
	uint32_t kind = rd32(r + 4) >> 26;
	return (kind_sized(kind) && rd32(r + 8) == CTF_LSIZE ? 20 : 12);
}

static uint64_t
rec_size(const uint8_t *r)
{
	if (rec_hdrlen(r) == 20)
		return ((uint64_t)rd32(r + 12) << 32 | rd32(r + 16));
	return (rd32(r + 8));
}

/* Bytes after the record's header, or UINT32_MAX for a bad kind. */
static uint32_t
rec_varlen(uint32_t kind, uint32_t vlen, uint64_t size)
{
	switch (kind) {
	case CTF_KIND_INT: case CTF_KIND_FLOAT:
		return (4);
	case CTF_KIND_ARRAY:
		return (12);
	case CTF_KIND_SLICE:
		return (8);
	case CTF_KIND_FUNC:
		return ((vlen + (vlen & 1)) * 4);
	case CTF_KIND_STRUCT: case CTF_KIND_UNION:
		return (vlen * (size >= CTF_LSTRUCT ? 16 : 12));
	case CTF_KIND_ENUM:
		return (vlen * 8);
	case CTF_KIND_UNKNOWN: case CTF_KIND_PTR: case CTF_KIND_FORWARD:
	case CTF_KIND_TYPEDEF: case CTF_KIND_VOLATILE: case CTF_KIND_CONST:
	case CTF_KIND_RESTRICT:
		return (0);
	default:
		return (UINT32_MAX);
	}
}

/*
 * Walk the records once: count them, and with index != NULL record each
 * one's offset.  -1 if a record does not fit or has an unknown kind.
 */
static int
types_walk(ctf_dict_t *d, uint32_t *index)
{
	uint32_t off = 0, n = 0;
	while (off < d->cd_typelen) {
		if (d->cd_typelen - off < 12)
			return (refuse(d, "a type record is cut short"));
		const uint8_t *r = d->cd_types + off;
		uint32_t hl = rec_hdrlen(r);
		if (d->cd_typelen - off < hl)
			return (refuse(d, "a type record is cut short"));
		uint32_t info = rd32(r + 4);
		uint32_t vl = rec_varlen(info >> 26, info & 0xffffff,
		    rec_size(r));
		if (vl == UINT32_MAX)
			return (refuse(d, "a type of an unknown kind"));
		if (d->cd_typelen - off - hl < vl)
			return (refuse(d, "a type's members run past the "
			    "type section"));
		if (n == CTF_PARENT_MAX - 1)
			return (refuse(d, "too many types"));
		n++;
		if (index != NULL)
			index[n] = off;
		off += hl + vl;
	}
	d->cd_ntypes = n;
	return (0);
}

static bool
ref_ok(const ctf_dict_t *d, uint32_t t)
{
	return (t <= d->cd_ntypes);
}

/* Every name and reference of type id's record and its variable part. */
static bool
type_refs_ok(const ctf_dict_t *d, uint32_t id)
{
	const uint8_t *r = d->cd_types + d->cd_index[id];
	uint32_t info = rd32(r + 4), kind = info >> 26, vlen = info & 0xffffff;
	const uint8_t *v = r + rec_hdrlen(r);
	if (!name_ok(d, rd32(r)))
		return (false);
	switch (kind) {
	case CTF_KIND_PTR: case CTF_KIND_TYPEDEF: case CTF_KIND_VOLATILE:
	case CTF_KIND_CONST: case CTF_KIND_RESTRICT: case CTF_KIND_FUNC:
		if (!ref_ok(d, rd32(r + 8)))
			return (false);
		for (uint32_t i = 0; kind == CTF_KIND_FUNC && i < vlen; i++)
			if (!ref_ok(d, rd32(v + 4 * i)))
				return (false);
		return (true);
	case CTF_KIND_ARRAY:
		return (ref_ok(d, rd32(v)) && ref_ok(d, rd32(v + 4)));
	case CTF_KIND_SLICE:
		return (ref_ok(d, rd32(v)));
	case CTF_KIND_STRUCT: case CTF_KIND_UNION: {
		uint32_t ml = rec_size(r) >= CTF_LSTRUCT ? 16 : 12;
		uint32_t to = ml == 16 ? 8 : 8;
		for (uint32_t i = 0; i < vlen; i++)
			if (!name_ok(d, rd32(v + ml * i)) ||
			    !ref_ok(d, rd32(v + ml * i + to)))
				return (false);
		return (true);
	}
	case CTF_KIND_ENUM:
		for (uint32_t i = 0; i < vlen; i++)
			if (!name_ok(d, rd32(v + 8 * i)))
				return (false);
		return (true);
	default:
		return (true);
	}
}

/* ---- ctf_open: the name index (ctf_lookup's hash of named types) ---- */

static uint32_t
name_hash(const char *s)
{
	uint32_t h = 2166136261u;
	while (*s != '\0')
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return (h);
}

/* Every named type in an open-addressed table of ids (0: empty). */
static int
names_index(ctf_dict_t *d, void *(*alloc)(size_t))
{
	uint32_t cap = 16;
	while (cap < 2 * d->cd_ntypes && cap < (1u << 30))
		cap *= 2;
	d->cd_names = alloc((size_t)cap * sizeof (uint32_t));
	if (d->cd_names == NULL)
		return (refuse(d, "no memory for the name index"));
	d->cd_namecap = cap;
	for (uint32_t i = 0; i < cap; i++)
		d->cd_names[i] = 0;
	for (uint32_t id = 1; id <= d->cd_ntypes; id++) {
		const char *n = name_of(d, rd32(d->cd_types + d->cd_index[id]));
		if (n[0] == '\0')
			continue;
		uint32_t h = name_hash(n) & (cap - 1);
		while (d->cd_names[h] != 0)
			h = (h + 1) & (cap - 1);
		d->cd_names[h] = id;
	}
	return (0);
}

int
ctf_open(ctf_dict_t *d, const void *buf, size_t len, void *(*alloc)(size_t))
{
	const uint8_t *b = buf;
	uint32_t h[H_N];
	*d = (ctf_dict_t){ .cd_err = NULL };
	if (b == NULL || len < CTF_HDRLEN)
		return (refuse(d, "shorter than a CTF header"));
	if ((rd32(b) & 0xffff) == CTF_MAGIC_BE)
		return (refuse(d, "big-endian CTF (this reader takes "
		    "little-endian: tools/ctf_flatten.c)"));
	if ((rd32(b) & 0xffff) != CTF_MAGIC)
		return (refuse(d, "not CTF (bad magic number)"));
	if (b[2] != CTF_VERSION3)
		return (refuse(d, "not CTF version 3"));
	if ((b[3] & CTF_F_COMPRESS) || (b[3] & ~CTF_F_KNOWN))
		return (refuse(d, "compressed, or unknown flags"));
	if (sections_check(d, b, len, h) != 0 || types_walk(d, NULL) != 0)
		return (-1);
	d->cd_index = alloc((size_t)(d->cd_ntypes + 1) * sizeof (uint32_t));
	if (d->cd_index == NULL)
		return (refuse(d, "no memory for the type index"));
	d->cd_index[0] = 0;
	(void)types_walk(d, d->cd_index);
	for (uint32_t id = 1; id <= d->cd_ntypes; id++)
		if (!type_refs_ok(d, id))
			return (refuse(d, "a type names a bad string or type"));
	for (uint32_t i = 0; i < d->cd_nvars; i++)
		if (!name_ok(d, rd32(d->cd_vars + 8 * i)) ||
		    !ref_ok(d, rd32(d->cd_vars + 8 * i + 4)))
			return (refuse(d, "a variable names a bad string or "
			    "type"));
	return (names_index(d, alloc));
}

/* ---- accessors ---- */

static const uint8_t *
rec_of(const ctf_dict_t *d, uint32_t id)
{
	if (id == 0 || id > d->cd_ntypes)
		return (NULL);
	return (d->cd_types + d->cd_index[id]);
}

int
ctf_type(const ctf_dict_t *d, uint32_t id, ctf_typeinfo_t *ti)
{
	const uint8_t *r = rec_of(d, id);
	if (r == NULL)
		return (-1);
	uint32_t info = rd32(r + 4);
	const uint8_t *v = r + rec_hdrlen(r);
	*ti = (ctf_typeinfo_t){ .ti_kind = info >> 26,
	    .ti_vlen = info & 0xffffff, .ti_name = name_of(d, rd32(r)) };
	if (kind_sized(ti->ti_kind))
		ti->ti_size = rec_size(r);
	else
		ti->ti_ref = rd32(r + 8);
	switch (ti->ti_kind) {
	case CTF_KIND_INT: case CTF_KIND_FLOAT:
		ti->ti_enc = rd32(v) >> 24;
		ti->ti_bitoff = (rd32(v) >> 16) & 0xff;
		ti->ti_bits = rd32(v) & 0xffff;
		break;
	case CTF_KIND_ARRAY:
		ti->ti_ref = rd32(v);
		ti->ti_nelem = rd32(v + 8);
		break;
	case CTF_KIND_SLICE:
		ti->ti_ref = rd32(v);
		ti->ti_bitoff = rd32(v + 4) & 0xffff;
		ti->ti_bits = rd32(v + 4) >> 16;
		break;
	case CTF_KIND_FUNC:
		ti->ti_varargs = ti->ti_vlen > 0 &&
		    rd32(v + 4 * (ti->ti_vlen - 1)) == 0;
		if (ti->ti_varargs)
			ti->ti_vlen--;
		break;
	default:
		break;
	}
	return (0);
}

int
ctf_member(const ctf_dict_t *d, uint32_t id, uint32_t i, const char **name,
    uint32_t *type, uint64_t *bitoff)
{
	const uint8_t *r = rec_of(d, id);
	if (r == NULL)
		return (-1);
	uint32_t info = rd32(r + 4), kind = info >> 26;
	if ((kind != CTF_KIND_STRUCT && kind != CTF_KIND_UNION) ||
	    i >= (info & 0xffffff))
		return (-1);
	bool large = rec_size(r) >= CTF_LSTRUCT;
	const uint8_t *m = r + rec_hdrlen(r) + i * (large ? 16 : 12);
	*name = name_of(d, rd32(m));
	*type = rd32(m + 8);
	*bitoff = large ? ((uint64_t)rd32(m + 4) << 32 | rd32(m + 12)) :
	    rd32(m + 4);
	return (0);
}

int
ctf_enumerator(const ctf_dict_t *d, uint32_t id, uint32_t i,
    const char **name, int32_t *value)
{
	const uint8_t *r = rec_of(d, id);
	if (r == NULL)
		return (-1);
	uint32_t info = rd32(r + 4);
	if ((info >> 26) != CTF_KIND_ENUM || i >= (info & 0xffffff))
		return (-1);
	const uint8_t *e = r + rec_hdrlen(r) + 8 * i;
	*name = name_of(d, rd32(e));
	*value = (int32_t)rd32(e + 4);
	return (0);
}

int
ctf_arg(const ctf_dict_t *d, uint32_t id, uint32_t i, uint32_t *type)
{
	const uint8_t *r = rec_of(d, id);
	if (r == NULL)
		return (-1);
	uint32_t info = rd32(r + 4);
	if ((info >> 26) != CTF_KIND_FUNC || i >= (info & 0xffffff))
		return (-1);
	*type = rd32(r + 12 + 4 * i);
	return (0);
}

/* ---- lookups ---- */

uint32_t
ctf_lookup(const ctf_dict_t *d, uint32_t kind, const char *name)
{
	uint32_t fwd = 0, cap = d->cd_namecap, best = 0;
	if (cap == 0 || name[0] == '\0')
		return (0);
	/* the table is at most half full: the probe ends at an empty slot */
	for (uint32_t h = name_hash(name) & (cap - 1), n = 0;
	    d->cd_names[h] != 0 && n < cap; h = (h + 1) & (cap - 1), n++) {
		uint32_t id = d->cd_names[h];
		const uint8_t *r = d->cd_types + d->cd_index[id];
		uint32_t k = rd32(r + 4) >> 26;
		if (!ctf_streq(name_of(d, rd32(r)), name) || name[0] == '\0')
			continue;
		if ((k == kind || (kind == CTF_KIND_INT &&
		    k == CTF_KIND_FLOAT)) && (best == 0 || id < best))
			best = id;		/* the first in the dict wins */
		if (k == CTF_KIND_FORWARD && kind != CTF_KIND_TYPEDEF &&
		    kind != CTF_KIND_INT && (fwd == 0 || id < fwd))
			fwd = id;
	}
	return (best != 0 ? best : fwd);
}

uint32_t
ctf_var(const ctf_dict_t *d, const char *name)
{
	uint32_t lo = 0, hi = d->cd_nvars;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const uint8_t *v = d->cd_vars + 8 * mid;
		int c = ctf_strcmp(name, name_of(d, rd32(v)));
		if (c == 0)
			return (rd32(v + 4));
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return (0);
}

uint32_t
ctf_resolve(const ctf_dict_t *d, uint32_t id)
{
	ctf_typeinfo_t ti;
	for (int depth = 0; depth < CTF_MAXDEPTH; depth++) {
		if (ctf_type(d, id, &ti) != 0)
			return (0);
		if (ti.ti_kind != CTF_KIND_TYPEDEF &&
		    ti.ti_kind != CTF_KIND_CONST &&
		    ti.ti_kind != CTF_KIND_VOLATILE &&
		    ti.ti_kind != CTF_KIND_RESTRICT)
			return (id);
		id = ti.ti_ref;
	}
	return (0);
}

/* ---- names ---- */

typedef struct namebuf {
	char *nb_buf;
	size_t nb_len, nb_pos;
} namebuf;

static void
nb_put(namebuf *nb, const char *s)
{
	while (*s != '\0' && nb->nb_pos + 1 < nb->nb_len)
		nb->nb_buf[nb->nb_pos++] = *s++;
	nb->nb_buf[nb->nb_pos] = '\0';
}

static void
nb_num(namebuf *nb, uint32_t v)
{
	char t[12];
	int i = 11;
	t[i] = '\0';
	do {
		t[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0 && i > 0);
	nb_put(nb, t + i);
}

static void name_rec(const ctf_dict_t *d, uint32_t id, namebuf *nb,
    const char *suffix, int depth);

/* A function type: return (suffix)(args). */
static void
name_func(const ctf_dict_t *d, const ctf_typeinfo_t *ti, uint32_t id,
    namebuf *nb, const char *suffix, int depth)
{
	name_rec(d, ti->ti_ref, nb, "", depth + 1);
	nb_put(nb, " (");
	nb_put(nb, suffix[0] != '\0' ? suffix : "*");
	nb_put(nb, ")(");
	for (uint32_t i = 0; i < ti->ti_vlen; i++) {
		uint32_t a = 0;
		(void)ctf_arg(d, id, i, &a);
		if (i > 0)
			nb_put(nb, ", ");
		name_rec(d, a, nb, "", depth + 1);
	}
	if (ti->ti_varargs)
		nb_put(nb, ti->ti_vlen > 0 ? ", ..." : "...");
	else if (ti->ti_vlen == 0)
		nb_put(nb, "void");
	nb_put(nb, ")");
}

/*
 * C's declarators, for the shapes kernel types take: a base name, then
 * pointers as " *" (or "(*)" around a function), arrays as " [n]".
 */
static void
name_rec(const ctf_dict_t *d, uint32_t id, namebuf *nb, const char *suffix,
    int depth)
{
	ctf_typeinfo_t ti;
	if (depth > CTF_MAXDEPTH || ctf_type(d, id, &ti) != 0) {
		nb_put(nb, id == 0 ? "void" : "<bad type>");
		nb_put(nb, suffix);
		return;
	}
	const char *tag = ti.ti_kind == CTF_KIND_STRUCT ? "struct " :
	    ti.ti_kind == CTF_KIND_UNION ? "union " :
	    ti.ti_kind == CTF_KIND_ENUM ? "enum " :
	    ti.ti_kind == CTF_KIND_FORWARD ? "struct " : "";
	switch (ti.ti_kind) {
	case CTF_KIND_PTR: {
		ctf_typeinfo_t p;
		if (ctf_type(d, ti.ti_ref, &p) == 0 &&
		    p.ti_kind == CTF_KIND_FUNC) {
			name_func(d, &p, ti.ti_ref, nb, "*", depth);
			return;
		}
		char s[64];
		namebuf sb = { s, sizeof (s), 0 };
		nb_put(&sb, " *");
		nb_put(&sb, suffix[0] == ' ' ? suffix + 1 : suffix);
		name_rec(d, ti.ti_ref, nb, s, depth + 1);
		return;
	}
	case CTF_KIND_ARRAY: {
		char s[64];
		namebuf sb = { s, sizeof (s), 0 };
		nb_put(&sb, suffix);
		nb_put(&sb, " [");
		nb_num(&sb, ti.ti_nelem);
		nb_put(&sb, "]");
		name_rec(d, ti.ti_ref, nb, s, depth + 1);
		return;
	}
	case CTF_KIND_FUNC:
		name_func(d, &ti, id, nb, suffix, depth);
		return;
	case CTF_KIND_CONST: case CTF_KIND_VOLATILE: case CTF_KIND_RESTRICT:
		nb_put(nb, ti.ti_kind == CTF_KIND_CONST ? "const " :
		    ti.ti_kind == CTF_KIND_VOLATILE ? "volatile " : "restrict ");
		name_rec(d, ti.ti_ref, nb, suffix, depth + 1);
		return;
	case CTF_KIND_SLICE:
		name_rec(d, ti.ti_ref, nb, suffix, depth + 1);
		return;
	default:
		nb_put(nb, tag);
		nb_put(nb, ti.ti_name[0] != '\0' ? ti.ti_name : "<anon>");
		nb_put(nb, suffix);
		return;
	}
}

char *
ctf_type_name(const ctf_dict_t *d, uint32_t id, char *buf, size_t len)
{
	namebuf nb = { buf, len, 0 };
	if (len == 0)
		return (buf);
	buf[0] = '\0';
	name_rec(d, id, &nb, "", 0);
	return (buf);
}

/* ---- fbt's argument types ---- */

int
ctf_func_argname(const ctf_dict_t *d, const char *func, bool ret, int argno,
    char *buf, size_t len)
{
	ctf_typeinfo_t ti;
	uint32_t f = ctf_var(d, func), a;
	if (f == 0 || ctf_type(d, f, &ti) != 0 || ti.ti_kind != CTF_KIND_FUNC ||
	    argno < 0)
		return (-1);
	if (ret && argno == 0) {	/* the return site's offset */
		namebuf nb = { buf, len, 0 };
		nb_put(&nb, "int");
		return (len > 0 ? 0 : -1);
	}
	if (ret && argno == 1)
		a = ti.ti_ref;
	else if (ret || (uint32_t)argno >= ti.ti_vlen ||
	    ctf_arg(d, f, (uint32_t)argno, &a) != 0)
		return (-1);	/* (a "..." has no type) */
	if (ret && (a == 0 || ctf_resolve(d, a) == 0))
		return (-1);
	ctf_typeinfo_t ai;
	if (ctf_type(d, ctf_resolve(d, a), &ai) == 0 &&
	    ai.ti_kind == CTF_KIND_INT && ai.ti_bits == 0)
		return (-1);		/* void */
	ctf_type_name(d, a, buf, len);
	return (0);
}
