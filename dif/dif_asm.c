/*
 * dif/dif_asm.c: text to DIF (the format is described in dif_text.h).
 *
 * dif_asm() reads the source one line at a time: labels ("name:"), then a
 * directive (.rtype .str .int .var .word) or an instruction whose operand
 * syntax is given by its format in dif_ops.def. Labels may be used before
 * they are defined: a first pass (asm_labels) records where each label is
 * (falling back to rescanning the source when there are more than fit the
 * small cache). Tables grow in the caller's dif_asmbuf_t; values not yet
 * in a table are appended. The first error stops assembly and is reported
 * as "line N: why". Context: not probe context; no allocation.
 *
 * Tests: tests/unit/dif_asm_test.c; make dif-check (difasm round trip of
 *        tests/dif/ (every vector))
 */
#include "dif/dif_text.h"

/* ---- assembler: lexing -------------------------------------------------- */

struct dif_asm {
	const char   *src, *end;      /* whole source */
	const char   *p, *eol;        /* cursor in the current line */
	uint32_t      line;
	dif_asmbuf_t *mem;
	dif_difo_t   *dp;
	dif_instr_t  *insns;          /* == mem->ab_insns, writable */
	uint64_t     *ints;
	char         *strs;
	dif_var_t    *vars;
	char         *err;
	size_t        errlen;
	bool          failed;
	uint32_t      nlabels;        /* label cache, filled by asm_labels() */
	bool          overflow;       /* more labels than fit: scan for misses */
	struct { const char *name; uint32_t len, pc; } labels[64];
};

static bool asm_fail(struct dif_asm *a, const char *why)
{
	struct dif_out o = { a->err, a->errlen, 0 };

	if (!a->failed) {
		out_s(&o, "line ");
		out_u(&o, a->line);
		out_s(&o, ": ");
		out_s(&o, why);
		out_end(&o);
	}
	a->failed = true;
	return false;
}

static void asm_ws(struct dif_asm *a)
{
	while (a->p < a->eol && (*a->p == ' ' || *a->p == '\t' || *a->p == '\r'))
		a->p++;
}

static bool asm_at_end(struct dif_asm *a)
{
	asm_ws(a);
	return a->p >= a->eol;
}

static bool asm_accept(struct dif_asm *a, char c)
{
	asm_ws(a);
	if (a->p < a->eol && *a->p == c) {
		a->p++;
		return true;
	}
	return false;
}

static bool asm_expect(struct dif_asm *a, char c)
{
	if (asm_accept(a, c))
		return true;
	return asm_fail(a, c == ',' ? "expected ','" : c == '[' ? "expected '['" :
	                c == ']' ? "expected ']'" : "syntax error");
}

static bool asm_isid(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	    c == '.' || (!first && c >= '0' && c <= '9');
}

/* An identifier (letters, digits, _ and .); its length, 0 if none. */
static size_t asm_ident(struct dif_asm *a, const char **s)
{
	asm_ws(a);
	*s = a->p;
	if (a->p >= a->eol || !asm_isid(*a->p, true))
		return 0;
	while (a->p < a->eol && asm_isid(*a->p, false))
		a->p++;
	return (size_t)(a->p - *s);
}

/* The value of hex digit c, -1 if c is not one. */
static int asm_hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' :
	    (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
}

static bool asm_number(struct dif_asm *a, uint64_t *v)
{
	bool neg, any = false;
	unsigned base = 10;

	*v = 0;
	asm_ws(a);
	neg = asm_accept(a, '-');
	if (a->eol - a->p > 2 && a->p[0] == '0' && (a->p[1] | 0x20) == 'x') {
		base = 16;
		a->p += 2;
	}
	for (; a->p < a->eol; a->p++, any = true) {
		int d = asm_hex(*a->p);
		if (d < 0 || (unsigned)d >= base)
			break;
		*v = *v * base + (unsigned)d;
	}
	if (neg)
		*v = 0 - *v;
	return any ? true : asm_fail(a, "expected a number");
}

static bool asm_small(struct dif_asm *a, uint64_t max, uint32_t *v)
{
	uint64_t x;

	*v = 0;
	if (!asm_number(a, &x))
		return false;
	if (x > max)
		return asm_fail(a, "number out of range");
	*v = (uint32_t)x;
	return true;
}

static bool asm_reg(struct dif_asm *a, uint32_t *r)
{
	asm_ws(a);
	if (a->eol - a->p < 3 || a->p[0] != '%' || a->p[1] != 'r')
		return asm_fail(a, "expected a register");
	a->p += 2;
	return asm_small(a, 255, r);
}

/* A quoted string, decoded to the free end of the string table; its length. */
static bool asm_string(struct dif_asm *a, size_t *n)
{
	char *dst = a->strs + a->dp->dd_strlen;
	size_t room = a->mem->ab_strs_cap - a->dp->dd_strlen;

	*n = 0;
	if (!asm_expect(a, '"'))
		return false;
	while (a->p < a->eol && *a->p != '"') {
		char c = *a->p++;
		if (c == '\\' && a->p < a->eol) {
			c = *a->p++;
			if (c == 'n')
				c = '\n';
			else if (c == 't')
				c = '\t';
			else if (c == 'x' && a->eol - a->p >= 2 &&
			         asm_hex(a->p[0]) >= 0 && asm_hex(a->p[1]) >= 0) {
				c = (char)(asm_hex(a->p[0]) * 16 + asm_hex(a->p[1]));
				a->p += 2;
			}
		}
		if (*n + 1 >= room)
			return asm_fail(a, "string table full");
		dst[(*n)++] = c;
	}
	if (!asm_expect(a, '"'))
		return false;
	dst[*n] = '\0';
	return true;
}

/* ---- assembler: tables -------------------------------------------------- */

static bool asm_str_append(struct dif_asm *a, size_t n, uint32_t *off)
{
	if (a->dp->dd_strlen + n + 1 > DIF_MAX_STRTAB)
		return asm_fail(a, "string table too large");
	*off = a->dp->dd_strlen;
	a->dp->dd_strlen += (uint32_t)n + 1;
	return true;
}

/* The string just decoded at the free end: reuse an equal one or keep it. */
static bool asm_str_intern(struct dif_asm *a, size_t n, uint32_t *off)
{
	int64_t at = dif_str_find(a->strs, a->dp->dd_strlen,
	                          a->strs + a->dp->dd_strlen, n);

	if (at >= 0) {
		*off = (uint32_t)at;
		return true;
	}
	return asm_str_append(a, n, off);
}

static bool asm_int_append(struct dif_asm *a, uint64_t v, uint32_t *idx)
{
	if (a->dp->dd_nints >= a->mem->ab_ints_cap ||
	    a->dp->dd_nints >= DIF_MAX_INTTAB)
		return asm_fail(a, "integer table full");
	*idx = a->dp->dd_nints;
	a->ints[a->dp->dd_nints++] = v;
	return true;
}

static bool asm_type(struct dif_asm *a, dif_type_t *t)
{
	const char *s;
	size_t n = asm_ident(a, &s);
	uint32_t v[4];

	__builtin_memset(t, 0, sizeof(*t));
	if (n >= 2 && (s[0] == 'i' || s[0] == 'u') && s[1] >= '0' && s[1] <= '9') {
		a->p = s + 1;
		if (!asm_small(a, 64, &v[0]) || (v[0] != 8 && v[0] != 16 &&
		    v[0] != 32 && v[0] != 64))
			return asm_fail(a, "bad integer type");
		*t = (dif_type_t){ DIF_TYPE_INT, s[0] == 'i' ? DIF_TF_SIGNED : 0, 0,
		                   v[0] / 8 };
		return true;
	}
	if (dif_name_eq(s, n, "void"))
		return true;
	if (dif_name_eq(s, n, "string")) {
		*t = (dif_type_t){ DIF_TYPE_STRING, DIF_TF_BYREF, 0, 0 };
		return asm_accept(a, ':') ? asm_small(a, 0xffffffffu, &t->dt_size) : true;
	}
	if (dif_name_eq(s, n, "blob")) {
		*t = (dif_type_t){ DIF_TYPE_BLOB, DIF_TF_BYREF, 0, 0 };
		return asm_expect(a, ':') && asm_small(a, 0xffffffffu, &t->dt_size);
	}
	if (!dif_name_eq(s, n, "raw"))
		return asm_fail(a, "unknown type");
	for (int i = 0; i < 4; i++)
		if (!asm_expect(a, ':') || !asm_small(a, i < 2 ? 255 : i == 2 ? 65535 :
		    0xffffffffu, &v[i]))
			return false;
	*t = (dif_type_t){ (uint8_t)v[0], (uint8_t)v[1], (uint16_t)v[2], v[3] };
	return true;
}

/* A word from a list of names, or a number. */
static bool asm_enum(struct dif_asm *a, const char *const *names, unsigned nn,
                     uint8_t *out)
{
	const char *s;
	size_t n = asm_ident(a, &s);
	uint32_t v;

	for (unsigned i = 0; n > 0 && i < nn; i++)
		if (dif_name_eq(s, n, names[i])) {
			*out = (uint8_t)i;
			return true;
		}
	if (n > 0)
		return asm_fail(a, "unknown word");
	if (!asm_small(a, 255, &v))
		return false;
	*out = (uint8_t)v;
	return true;
}

/* A name (interned in the string table) or @offset. */
static bool asm_name(struct dif_asm *a, uint32_t *off)
{
	const char *s;
	size_t n;

	if (asm_accept(a, '@'))
		return asm_small(a, 0xffffffffu, off);
	n = asm_ident(a, &s);
	if (n == 0)
		return asm_fail(a, "expected a name");
	if (n + 1 >= a->mem->ab_strs_cap - a->dp->dd_strlen)
		return asm_fail(a, "string table full");
	__builtin_memcpy(a->strs + a->dp->dd_strlen, s, n);
	a->strs[a->dp->dd_strlen + n] = '\0';
	return asm_str_intern(a, n, off);
}

static bool asm_dir_var(struct dif_asm *a)
{
	dif_var_t v;
	uint32_t id, fl = 0;
	const char *s;

	__builtin_memset(&v, 0, sizeof(v));
	if (a->dp->dd_nvars >= a->mem->ab_vars_cap)
		return asm_fail(a, "variable table full");
	if (!asm_name(a, &v.dv_name) || !asm_small(a, 0xffffffffu, &id) ||
	    !asm_enum(a, dif_scope_names, 3, &v.dv_scope) ||
	    !asm_enum(a, dif_kind_names, 2, &v.dv_kind) || !asm_type(a, &v.dv_type))
		return false;
	if (asm_ident(a, &s) == 5 && dif_name_eq(s, 5, "flags") &&
	    !(asm_expect(a, '=') && asm_small(a, 65535, &fl)))
		return false;
	v.dv_id = id;
	v.dv_flags = (uint16_t)fl;
	a->vars[a->dp->dd_nvars++] = v;
	return true;
}

static bool asm_emit(struct dif_asm *a, dif_instr_t in)
{
	if (a->dp->dd_ninsns >= a->mem->ab_insns_cap)
		return asm_fail(a, "too many instructions");
	a->insns[a->dp->dd_ninsns++] = in;
	return true;
}

static bool asm_directive(struct dif_asm *a, const char *s, size_t n)
{
	uint64_t v;
	uint32_t off;
	size_t len;

	if (dif_name_eq(s, n, ".rtype"))
		return asm_type(a, &a->dp->dd_rtype);
	if (dif_name_eq(s, n, ".int"))
		return asm_number(a, &v) && asm_int_append(a, v, &off);
	if (dif_name_eq(s, n, ".str"))
		return asm_string(a, &len) && asm_str_append(a, len, &off);
	if (dif_name_eq(s, n, ".var"))
		return asm_dir_var(a);
	if (dif_name_eq(s, n, ".word"))
		return asm_small(a, 0xffffffffu, &off) && asm_emit(a, off);
	return asm_fail(a, "unknown directive");
}

/* ---- assembler: lines and labels ---------------------------------------- */

/* Set a->p, a->eol to the line at `start`, comments cut; next line start. */
static const char *asm_line(struct dif_asm *a, const char *start)
{
	const char *nl = start, *q;
	bool quoted = false;

	while (nl < a->end && *nl != '\n')
		nl++;
	a->p = start;
	a->eol = nl;
	asm_ws(a);
	if (a->p < nl && *a->p == '#')
		a->eol = a->p;
	for (q = a->p; q < a->eol; q++) {
		if (quoted && *q == '\\')
			q++;
		else if (*q == '"')
			quoted = !quoted;
		else if (*q == ';' && !quoted)
			a->eol = q;
	}
	return nl < a->end ? nl + 1 : nl;
}

/* A label definition "name:" at the cursor: consume it, return its name. */
static size_t asm_label_def(struct dif_asm *a, const char **s)
{
	const char *save = a->p;
	size_t n = asm_ident(a, s);

	if (n > 0 && (*s)[0] != '.' && asm_accept(a, ':'))
		return n;
	a->p = save;
	return 0;
}

/* Does the rest of the line hold an instruction (or .word)? */
static bool asm_has_insn(struct dif_asm *a)
{
	const char *s;
	size_t n;

	if (asm_at_end(a))
		return false;
	n = asm_ident(a, &s);
	return n == 0 || s[0] != '.' || dif_name_eq(s, n, ".word");
}

/* The pc of label `name`, by scanning the whole source. */
static bool asm_label_pc(struct dif_asm *a, const char *name, size_t n,
                         uint32_t *pc)
{
	struct dif_asm b = *a;
	const char *next = a->src, *s;
	uint32_t count = 0;
	size_t m;

	while (next < b.end) {
		next = asm_line(&b, next);
		while ((m = asm_label_def(&b, &s)) > 0)
			if (m == n && __builtin_memcmp(s, name, n) == 0) {
				*pc = count;
				return true;
			}
		count += asm_has_insn(&b);
	}
	return asm_fail(a, "undefined label");
}

/* One pass over the source remembering the first 64 label definitions. */
static void asm_labels(struct dif_asm *a)
{
	struct dif_asm b = *a;
	const char *next = a->src, *s;
	uint32_t count = 0;
	size_t m;

	while (next < b.end) {
		next = asm_line(&b, next);
		while ((m = asm_label_def(&b, &s)) > 0) {
			if (a->nlabels == 64) {
				a->overflow = true;
				continue;
			}
			a->labels[a->nlabels].name = s;
			a->labels[a->nlabels].len = (uint32_t)m;
			a->labels[a->nlabels++].pc = count;
		}
		count += asm_has_insn(&b);
	}
}

/* ---- assembler: operands ------------------------------------------------ */

static bool asm_label(struct dif_asm *a, uint32_t *pc)
{
	const char *s;
	size_t n = asm_ident(a, &s);

	if (n == 0)
		return asm_small(a, 0xffffff, pc);
	for (uint32_t i = 0; i < a->nlabels; i++)
		if (a->labels[i].len == n &&
		    __builtin_memcmp(a->labels[i].name, s, n) == 0) {
			*pc = a->labels[i].pc;
			return true;
		}
	if (!a->overflow)
		return asm_fail(a, "undefined label");
	return asm_label_pc(a, s, n, pc);
}

static bool asm_setx(struct dif_asm *a, uint32_t *idx)
{
	uint64_t v;
	int64_t at;

	if (asm_accept(a, '#'))
		return asm_small(a, 0xffff, idx);
	if (!asm_number(a, &v))
		return false;
	at = dif_int_find(a->ints, a->dp->dd_nints, v);
	if (at >= 0) {
		*idx = (uint32_t)at;
		return true;
	}
	return asm_int_append(a, v, idx);
}

static bool asm_sets(struct dif_asm *a, uint32_t *off)
{
	size_t n;

	if (asm_accept(a, '@'))
		return asm_small(a, 0xffff, off);
	if (!asm_string(a, &n) || !asm_str_intern(a, n, off))
		return false;
	return *off <= 0xffff ? true : asm_fail(a, "string offset out of range");
}

static bool asm_varid(struct dif_asm *a, unsigned op, uint32_t *id)
{
	const char *s;
	size_t n = asm_ident(a, &s);
	int64_t v;

	if (n == 0)
		return asm_small(a, 0xffff, id);
	v = dif_var_resolve(a->dp, dif_op_scope(op), s, n);
	if (v < 0 || v > 0xffff)
		return asm_fail(a, "unknown variable");
	*id = (uint32_t)v;
	return true;
}

static bool asm_lda_var(struct dif_asm *a, uint32_t *id)
{
	const char *s;
	size_t n = asm_ident(a, &s);
	const dif_builtin_t *bi;

	if (n == 0)
		return asm_small(a, 255, id);
	bi = dif_builtin_lookup(s, n);
	if (bi == NULL || !bi->bi_array)
		return asm_fail(a, "unknown built-in array");
	*id = bi->bi_id;
	return true;
}

static bool asm_subr(struct dif_asm *a, uint32_t *id)
{
	const char *s;
	size_t n = asm_ident(a, &s);

	if (n == 0)
		return asm_small(a, 0xffff, id);
	for (unsigned i = 0; i < DIF_SUBR_MAX; i++)
		if (dif_subrinfo(i) && dif_name_eq(s, n, dif_subrinfo(i)->si_name)) {
			*id = i;
			return true;
		}
	return asm_fail(a, "unknown subroutine");
}

static bool asm_ttype(struct dif_asm *a, uint32_t *t)
{
	const char *s;
	size_t n = asm_ident(a, &s);

	if (n == 0)
		return asm_small(a, 255, t);
	if (dif_name_eq(s, n, "str") || dif_name_eq(s, n, "mem")) {
		*t = s[0] == 's' ? DIF_TT_STR : DIF_TT_MEM;
		return true;
	}
	return asm_fail(a, "unknown tuple type");
}

/* Operands of format fmt into f[0..2] (r1, r2, rd) or f[3] (immediate). */
static bool asm_operands(struct dif_asm *a, unsigned op, unsigned fmt,
                         uint32_t f[4])
{
	switch (fmt) {
	case DIF_FMT_RRR: case DIF_FMT_COPY:
		return asm_reg(a, &f[0]) && asm_expect(a, ',') && asm_reg(a, &f[1]) &&
		    asm_expect(a, ',') && asm_reg(a, &f[2]);
	case DIF_FMT_RR:
		return asm_reg(a, &f[0]) && asm_expect(a, ',') && asm_reg(a, &f[2]);
	case DIF_FMT_CMP:
		return asm_reg(a, &f[0]) && asm_expect(a, ',') && asm_reg(a, &f[1]);
	case DIF_FMT_TST: return asm_reg(a, &f[0]);
	case DIF_FMT_LD:
		return asm_expect(a, '[') && asm_reg(a, &f[0]) && asm_expect(a, ']') &&
		    asm_expect(a, ',') && asm_reg(a, &f[2]);
	case DIF_FMT_ST:
		return asm_reg(a, &f[0]) && asm_expect(a, ',') && asm_expect(a, '[') &&
		    asm_reg(a, &f[2]) && asm_expect(a, ']');
	case DIF_FMT_BR: return asm_label(a, &f[3]);
	case DIF_FMT_SETX:
		return asm_setx(a, &f[3]) && asm_expect(a, ',') && asm_reg(a, &f[2]);
	case DIF_FMT_SETS:
		return asm_sets(a, &f[3]) && asm_expect(a, ',') && asm_reg(a, &f[2]);
	case DIF_FMT_VLD: case DIF_FMT_VST:
		return asm_varid(a, op, &f[3]) && asm_expect(a, ',') && asm_reg(a, &f[2]);
	case DIF_FMT_LDA:
		return asm_lda_var(a, &f[0]) && asm_expect(a, ',') &&
		    asm_reg(a, &f[1]) && asm_expect(a, ',') && asm_reg(a, &f[2]);
	case DIF_FMT_CALL:
		return asm_subr(a, &f[3]) && asm_expect(a, ',') && asm_reg(a, &f[2]);
	case DIF_FMT_PUSHTR:
		return asm_ttype(a, &f[0]) && asm_expect(a, ',') && asm_reg(a, &f[1]) &&
		    asm_expect(a, ',') && asm_reg(a, &f[2]);
	case DIF_FMT_PUSHTV: case DIF_FMT_RET: return asm_reg(a, &f[2]);
	default: return true;
	}
}

static bool asm_insn(struct dif_asm *a, const char *s, size_t n)
{
	const dif_opinfo_t *oi = NULL;
	uint32_t f[4] = { 0, 0, 0, 0 };
	unsigned op;

	for (op = 1; op < 256 && oi == NULL; op++)
		if (dif_opinfo(op) && dif_name_eq(s, n, dif_opinfo(op)->oi_name))
			oi = dif_opinfo(op);
	if (oi == NULL)
		return asm_fail(a, "unknown instruction");
	op--;
	if (!asm_operands(a, op, oi->oi_fmt, f))
		return false;
	if (oi->oi_fmt == DIF_FMT_BR)
		return asm_emit(a, DIF_INSTR_BRANCH(op, f[3]));
	if (oi->oi_fmt == DIF_FMT_SETX || oi->oi_fmt == DIF_FMT_SETS ||
	    oi->oi_fmt == DIF_FMT_VLD || oi->oi_fmt == DIF_FMT_VST ||
	    oi->oi_fmt == DIF_FMT_CALL)
		return asm_emit(a, DIF_INSTR_INDEXED(op, f[3], f[2]));
	return asm_emit(a, DIF_INSTR_MAKE(op, f[0], f[1], f[2]));
}

static bool asm_statement(struct dif_asm *a)
{
	const char *s;
	size_t n;

	while (asm_label_def(a, &s) > 0)
		;
	if (asm_at_end(a))
		return true;
	n = asm_ident(a, &s);
	if (n == 0)
		return asm_fail(a, "expected an instruction or directive");
	if (!(s[0] == '.' ? asm_directive(a, s, n) : asm_insn(a, s, n)))
		return false;
	return asm_at_end(a) ? true : asm_fail(a, "junk at end of line");
}

int dif_asm(const char *src, size_t len, dif_asmbuf_t *mem, dif_difo_t *out,
            char *err, size_t errlen)
{
	struct dif_asm a = {
		.src = src, .end = src + len, .line = 0, .mem = mem, .dp = out,
		.insns = mem->ab_insns, .ints = mem->ab_ints, .strs = mem->ab_strs,
		.vars = mem->ab_vars, .err = err, .errlen = errlen,
	};
	const char *next = src;

	__builtin_memset(out, 0, sizeof(*out));
	out->dd_insns = mem->ab_insns;
	out->dd_inttab = mem->ab_ints;
	out->dd_strtab = mem->ab_strs;
	out->dd_vartab = mem->ab_vars;
	out->dd_rtype = (dif_type_t){ DIF_TYPE_INT, DIF_TF_SIGNED, 0, 8 };
	if (errlen > 0)
		err[0] = '\0';
	asm_labels(&a);
	while (next < a.end && !a.failed) {
		a.line++;
		next = asm_line(&a, next);
		asm_statement(&a);
	}
	return a.failed ? -1 : 0;
}
