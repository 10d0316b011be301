/*
 * dif/dif_asm.c: the text form of DIF: disassembler and assembler.
 *
 * The text form is what `dtrace -S`, tools/difasm, the test vectors and
 * docs/dif.md show. A DIFO is written as directives for its tables, then
 * its instructions, one per line, with labels L<pc> at branch targets:
 *
 *   .rtype i64                      return type
 *   .str "hello"                    string table, one NUL-terminated piece
 *   .int 100                        integer table entry
 *   .var x 0x500 global scalar i64  variable table entry
 *           ldgs arg0, %r1
 *           setx 100, %r2
 *           cmp %r1, %r2
 *           ble L5
 *           ...
 *   L5:
 *           ret %r0
 *
 * Operands are shown by value where that is unambiguous (setx 100, sets
 * "hello", ldgs x, call strlen) and by index otherwise (setx #3, sets @7,
 * ldgs 0x501); an instruction that cannot be shown (unknown opcode, nonzero
 * unused field) is `.word 0x...`. The assembler reads back exactly this,
 * so dif_asm(dif_disasm(d)) reproduces d bit for bit; when it meets a value
 * that is not yet in a table (setx 7 with no .int 7) it appends it, which
 * is what hand-written programs rely on. Comments start with ';', or '#' at
 * the start of a line.
 *
 * Neither direction allocates: the disassembler writes into the caller's
 * buffer like snprintf, the assembler into the caller's dif_asmbuf_t.
 * Context: not probe context (the compiler, the shell, host tools).
 */
#include "dif/dif.h"

/* ---- output ------------------------------------------------------------- */

struct dif_out {
	char  *buf;
	size_t cap, len;
};

static void out_c(struct dif_out *o, char c)
{
	if (o->len + 1 < o->cap)
		o->buf[o->len] = c;
	o->len++;
}

static void out_s(struct dif_out *o, const char *s)
{
	while (*s)
		out_c(o, *s++);
}

static void out_u(struct dif_out *o, uint64_t v)
{
	char tmp[24];
	int n = 0;

	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0)
		out_c(o, tmp[--n]);
}

static void out_x(struct dif_out *o, uint64_t v)
{
	int shift = 60;

	out_s(o, "0x");
	while (shift > 0 && ((v >> shift) & 15) == 0)
		shift -= 4;
	for (; shift >= 0; shift -= 4)
		out_c(o, "0123456789abcdef"[(v >> shift) & 15]);
}

static void out_i(struct dif_out *o, uint64_t v)
{
	if ((int64_t)v < 0) {
		out_c(o, '-');
		v = 0 - v;
	}
	out_u(o, v);
}

static void out_reg(struct dif_out *o, unsigned r)
{
	out_s(o, "%r");
	out_u(o, r);
}

/* A quoted string with C escapes: n bytes at s. */
static void out_q(struct dif_out *o, const char *s, size_t n)
{
	out_c(o, '"');
	for (const char *e = s + n; s < e; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			out_c(o, '\\');
			out_c(o, (char)c);
		} else if (c == '\n') {
			out_s(o, "\\n");
		} else if (c == '\t') {
			out_s(o, "\\t");
		} else if (c < 0x20 || c >= 0x7f) {
			out_s(o, "\\x");
			out_c(o, "0123456789abcdef"[c >> 4]);
			out_c(o, "0123456789abcdef"[c & 15]);
		} else {
			out_c(o, (char)c);
		}
	}
	out_c(o, '"');
}

static void out_end(struct dif_out *o)
{
	if (o->cap > 0)
		o->buf[o->len < o->cap ? o->len : o->cap - 1] = '\0';
}

/* ---- lookups shared by both directions ---------------------------------- */

static bool dif_name_eq(const char *a, size_t n, const char *b)
{
	size_t i = 0;

	while (i < n && b[i] != '\0' && a[i] == b[i])
		i++;
	return i == n && b[i] == '\0';
}

/* First offset where s (n bytes, then NUL) occurs in tab; -1 if none. */
static int64_t dif_str_find(const char *tab, uint32_t tlen, const char *s,
                            size_t n)
{
	for (uint64_t off = 0; off + n < tlen; off++)
		if (__builtin_memcmp(tab + off, s, n) == 0 && tab[off + n] == '\0')
			return (int64_t)off;
	return -1;
}

static int64_t dif_int_find(const uint64_t *tab, uint32_t n, uint64_t v)
{
	for (uint32_t i = 0; i < n; i++)
		if (tab[i] == v)
			return i;
	return -1;
}

static size_t dif_slen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n] != '\0')
		n++;
	return n;
}

/* The variable id that `name` denotes for an opcode of `scope`; -1 if none. */
static int64_t dif_var_resolve(const dif_difo_t *dp, unsigned scope,
                               const char *name, size_t n)
{
	const dif_builtin_t *bi;

	for (uint32_t i = 0; i < dp->dd_nvars; i++) {
		const dif_var_t *v = &dp->dd_vartab[i];
		if (v->dv_scope == scope && v->dv_name < dp->dd_strlen &&
		    dif_name_eq(name, n, dp->dd_strtab + v->dv_name))
			return v->dv_id;
	}
	bi = scope == DIF_SCOPE_GLOBAL ? dif_builtin_lookup(name, n) : NULL;
	return bi != NULL && !bi->bi_array ? bi->bi_id : -1;
}

static unsigned dif_op_scope(unsigned op)
{
	switch (op) {
	case DIF_OP_LDTS: case DIF_OP_STTS: case DIF_OP_LDTAA: case DIF_OP_STTAA:
		return DIF_SCOPE_THREAD;
	case DIF_OP_LDLS: case DIF_OP_STLS:
		return DIF_SCOPE_LOCAL;
	default:
		return DIF_SCOPE_GLOBAL;
	}
}

static bool dif_is_ident(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return false;
	for (s++; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

static const char *const dif_scope_names[] = { "global", "thread", "local" };
static const char *const dif_kind_names[] = { "scalar", "array" };

/* ---- disassembler ------------------------------------------------------- */

static void dis_type(struct dif_out *o, const dif_type_t *t)
{
	bool sz = t->dt_size == 1 || t->dt_size == 2 || t->dt_size == 4 ||
	          t->dt_size == 8;

	if (t->dt_kind == DIF_TYPE_INT && sz && t->dt_pad == 0 &&
	    !(t->dt_flags & ~DIF_TF_SIGNED)) {
		out_c(o, t->dt_flags ? 'i' : 'u');
		out_u(o, 8 * t->dt_size);
	} else if (t->dt_kind == DIF_TYPE_STRING && t->dt_flags == DIF_TF_BYREF &&
	           t->dt_pad == 0) {
		out_s(o, "string");
		if (t->dt_size) {
			out_c(o, ':');
			out_u(o, t->dt_size);
		}
	} else if (t->dt_kind == DIF_TYPE_BLOB && t->dt_flags == DIF_TF_BYREF &&
	           t->dt_pad == 0) {
		out_s(o, "blob:");
		out_u(o, t->dt_size);
	} else if (t->dt_kind == DIF_TYPE_VOID && !t->dt_flags && !t->dt_pad &&
	           !t->dt_size) {
		out_s(o, "void");
	} else {
		out_s(o, "raw:");
		out_u(o, t->dt_kind); out_c(o, ':');
		out_u(o, t->dt_flags); out_c(o, ':');
		out_u(o, t->dt_pad); out_c(o, ':');
		out_u(o, t->dt_size);
	}
}

/* The NUL-terminated string at strtab offset off, or NULL. */
static const char *dif_tabstr(const dif_difo_t *dp, uint32_t off, size_t *n)
{
	if (off >= dp->dd_strlen)
		return NULL;
	*n = dif_slen(dp->dd_strtab + off, dp->dd_strlen - off);
	return *n < dp->dd_strlen - off ? dp->dd_strtab + off : NULL;
}

/* The name at strtab offset off if it reads back as off, else @off. */
static void dis_name(struct dif_out *o, const dif_difo_t *dp, uint32_t off)
{
	size_t n;
	const char *s = dif_tabstr(dp, off, &n);

	if (s != NULL && dif_is_ident(s) &&
	    dif_str_find(dp->dd_strtab, dp->dd_strlen, s, n) == (int64_t)off) {
		out_s(o, s);
		return;
	}
	out_c(o, '@');
	out_u(o, off);
}

static void dis_var(struct dif_out *o, const dif_difo_t *dp, const dif_var_t *v)
{
	out_s(o, ".var ");
	dis_name(o, dp, v->dv_name);
	out_c(o, ' ');
	out_x(o, v->dv_id);
	out_c(o, ' ');
	if (v->dv_scope <= DIF_SCOPE_LOCAL)
		out_s(o, dif_scope_names[v->dv_scope]);
	else
		out_u(o, v->dv_scope);
	out_c(o, ' ');
	if (v->dv_kind <= DIF_VKIND_ARRAY)
		out_s(o, dif_kind_names[v->dv_kind]);
	else
		out_u(o, v->dv_kind);
	out_c(o, ' ');
	dis_type(o, &v->dv_type);
	if (v->dv_flags) {
		out_s(o, " flags=");
		out_u(o, v->dv_flags);
	}
	out_c(o, '\n');
}

static void dis_tables(struct dif_out *o, const dif_difo_t *dp)
{
	out_s(o, ".rtype ");
	dis_type(o, &dp->dd_rtype);
	out_c(o, '\n');
	for (uint32_t off = 0; off < dp->dd_strlen;) {
		size_t n = dif_slen(dp->dd_strtab + off, dp->dd_strlen - off);
		out_s(o, ".str ");
		out_q(o, dp->dd_strtab + off, n);
		out_c(o, '\n');
		off += (uint32_t)n + 1;
	}
	for (uint32_t i = 0; i < dp->dd_nints; i++) {
		out_s(o, ".int ");
		out_i(o, dp->dd_inttab[i]);
		out_c(o, '\n');
	}
	for (uint32_t i = 0; i < dp->dd_nvars; i++)
		dis_var(o, dp, &dp->dd_vartab[i]);
}

static void dis_setx(struct dif_out *o, const dif_difo_t *dp, uint32_t idx)
{
	if (idx < dp->dd_nints &&
	    dif_int_find(dp->dd_inttab, dp->dd_nints, dp->dd_inttab[idx]) == idx) {
		out_i(o, dp->dd_inttab[idx]);
		return;
	}
	out_c(o, '#');
	out_u(o, idx);
}

static void dis_sets(struct dif_out *o, const dif_difo_t *dp, uint32_t off)
{
	size_t n;
	const char *s = dif_tabstr(dp, off, &n);

	if (s != NULL &&
	    dif_str_find(dp->dd_strtab, dp->dd_strlen, s, n) == (int64_t)off) {
		out_q(o, s, n);
		return;
	}
	out_c(o, '@');
	out_u(o, off);
}

static void dis_varid(struct dif_out *o, const dif_difo_t *dp, unsigned op,
                      uint32_t id)
{
	unsigned scope = dif_op_scope(op);
	const dif_builtin_t *bi = dif_builtin_byid(id);
	const char *name = NULL;
	size_t n = 0;

	for (uint32_t i = 0; i < dp->dd_nvars && name == NULL; i++)
		if (dp->dd_vartab[i].dv_id == id && dp->dd_vartab[i].dv_scope == scope)
			name = dif_tabstr(dp, dp->dd_vartab[i].dv_name, &n);
	if (name == NULL && bi != NULL && scope == DIF_SCOPE_GLOBAL) {
		name = bi->bi_name;
		n = dif_slen(name, 64);
	}
	if (name != NULL && dif_is_ident(name) &&
	    dif_var_resolve(dp, scope, name, n) == (int64_t)id) {
		out_s(o, name);
		return;
	}
	out_x(o, id);
}

static void dis_named(struct dif_out *o, const char *name, uint32_t v)
{
	if (name != NULL)
		out_s(o, name);
	else
		out_u(o, v);
}

/* Can the instruction be written in its format? (unused fields zero) */
static bool dis_showable(dif_instr_t in, const dif_opinfo_t *oi)
{
	unsigned f[3] = { DIF_INSTR_R1(in), DIF_INSTR_R2(in), DIF_INSTR_RD(in) };

	if (oi == NULL)
		return false;
	for (int k = 0; k < 3; k++)
		if (oi->oi_role[k] == DIF_ROLE_N && f[k] != 0)
			return false;
	return true;
}

static void dis_operands(struct dif_out *o, const dif_difo_t *dp,
                         dif_instr_t in, const dif_opinfo_t *oi)
{
	unsigned op = DIF_INSTR_OP(in), r1 = DIF_INSTR_R1(in), r2 = DIF_INSTR_R2(in);
	unsigned rd = DIF_INSTR_RD(in), idx = DIF_INSTR_INDEX(in);
	const dif_builtin_t *bi;
	const dif_subrinfo_t *si;

	switch (oi->oi_fmt) {
	case DIF_FMT_RRR: case DIF_FMT_COPY:
		out_reg(o, r1); out_s(o, ", "); out_reg(o, r2); out_s(o, ", ");
		out_reg(o, rd); break;
	case DIF_FMT_RR: out_reg(o, r1); out_s(o, ", "); out_reg(o, rd); break;
	case DIF_FMT_CMP: out_reg(o, r1); out_s(o, ", "); out_reg(o, r2); break;
	case DIF_FMT_TST: out_reg(o, r1); break;
	case DIF_FMT_LD:
		out_s(o, "["); out_reg(o, r1); out_s(o, "], "); out_reg(o, rd); break;
	case DIF_FMT_ST:
		out_reg(o, r1); out_s(o, ", ["); out_reg(o, rd); out_s(o, "]"); break;
	case DIF_FMT_BR:
		if (DIF_INSTR_LABEL(in) < dp->dd_ninsns)
			out_c(o, 'L');
		out_u(o, DIF_INSTR_LABEL(in));
		break;
	case DIF_FMT_SETX: dis_setx(o, dp, idx); out_s(o, ", "); out_reg(o, rd); break;
	case DIF_FMT_SETS: dis_sets(o, dp, idx); out_s(o, ", "); out_reg(o, rd); break;
	case DIF_FMT_VLD: case DIF_FMT_VST:
		dis_varid(o, dp, op, idx); out_s(o, ", "); out_reg(o, rd); break;
	case DIF_FMT_LDA:
		bi = dif_builtin_byid(r1);
		dis_named(o, bi && bi->bi_array ? bi->bi_name : NULL, r1);
		out_s(o, ", "); out_reg(o, r2); out_s(o, ", "); out_reg(o, rd); break;
	case DIF_FMT_CALL:
		si = dif_subrinfo(idx);
		dis_named(o, si ? si->si_name : NULL, idx);
		out_s(o, ", "); out_reg(o, rd); break;
	case DIF_FMT_PUSHTR:
		dis_named(o, r1 == DIF_TT_STR ? "str" : r1 == DIF_TT_MEM ? "mem" : NULL, r1);
		out_s(o, ", "); out_reg(o, r2); out_s(o, ", "); out_reg(o, rd); break;
	case DIF_FMT_PUSHTV: case DIF_FMT_RET: out_reg(o, rd); break;
	default: break;
	}
}

static void dis_insn(struct dif_out *o, const dif_difo_t *dp, uint32_t pc)
{
	dif_instr_t in = dp->dd_insns[pc];
	const dif_opinfo_t *oi = dif_opinfo(DIF_INSTR_OP(in));

	if (!dis_showable(in, oi)) {
		out_s(o, ".word ");
		out_x(o, in);
		return;
	}
	out_s(o, oi->oi_name);
	if (oi->oi_fmt != DIF_FMT_NONE)
		out_c(o, ' ');
	dis_operands(o, dp, in, oi);
}

size_t dif_disasm_insn(const dif_difo_t *dp, uint32_t pc, char *out,
                       size_t outlen)
{
	struct dif_out o = { out, outlen, 0 };

	if (pc < dp->dd_ninsns)
		dis_insn(&o, dp, pc);
	out_end(&o);
	return o.len;
}

/* Mark which of the pcs [base, base + DIS_CHUNK) are branch targets. */
#define DIS_CHUNK 2048
static void dis_targets(const dif_difo_t *dp, uint32_t base, uint8_t *map)
{
	__builtin_memset(map, 0, DIS_CHUNK / 8);
	for (uint32_t i = 0; i < dp->dd_ninsns; i++) {
		dif_instr_t in = dp->dd_insns[i];
		const dif_opinfo_t *oi = dif_opinfo(DIF_INSTR_OP(in));
		uint32_t t = DIF_INSTR_LABEL(in) - base;
		if (oi && oi->oi_fmt == DIF_FMT_BR && DIF_INSTR_LABEL(in) >= base &&
		    t < DIS_CHUNK)
			map[t / 8] |= (uint8_t)(1u << (t % 8));
	}
}

size_t dif_disasm(const dif_difo_t *dp, char *out, size_t outlen)
{
	struct dif_out o = { out, outlen, 0 };
	uint8_t map[DIS_CHUNK / 8];

	dis_tables(&o, dp);
	for (uint32_t pc = 0; pc < dp->dd_ninsns; pc++) {
		if (pc % DIS_CHUNK == 0)
			dis_targets(dp, pc, map);
		if (map[(pc % DIS_CHUNK) / 8] & (1u << (pc % 8))) {
			out_c(&o, 'L');
			out_u(&o, pc);
			out_s(&o, ":\n");
		}
		out_c(&o, '\t');
		dis_insn(&o, dp, pc);
		out_c(&o, '\n');
	}
	out_end(&o);
	return o.len;
}

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
	for (*v = 0; a->p < a->eol; a->p++, any = true) {
		char c = *a->p;
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') :
		    (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (unsigned)((c | 0x20) - 'a' + 10) : 99;
		if (d >= base)
			break;
		*v = *v * base + d;
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

static int asm_hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' :
	    (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
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
