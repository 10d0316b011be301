/*
 * dif/dif_text.h: the text form of DIF, shared by the disassembler
 * (dif_disasm.c) and the assembler (dif_asm.c). Private to dif/.
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
 *
 * This header holds what both directions need: a bounded output buffer
 * (struct dif_out and the out_* writers) and the lookups that decide how
 * an operand is named (first table entry with a value, variable names,
 * identifiers). The disassembler prints a name only if the assembler's
 * lookup of that name gives back the same index, which is what makes the
 * round trip exact.
 */
#ifndef SONDE_DIF_DIF_TEXT_H
#define SONDE_DIF_DIF_TEXT_H

#include "dif/dif_impl.h"

/* ---- output ------------------------------------------------------------- */

struct dif_out {
	char  *buf;
	size_t cap, len;
};

static inline void out_c(struct dif_out *o, char c)
{
	if (o->len + 1 < o->cap)
		o->buf[o->len] = c;
	o->len++;
}

static inline void out_s(struct dif_out *o, const char *s)
{
	while (*s)
		out_c(o, *s++);
}

static inline void out_u(struct dif_out *o, uint64_t v)
{
	char tmp[24];
	int n = 0;

	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0)
		out_c(o, tmp[--n]);
}

static inline void out_x(struct dif_out *o, uint64_t v)
{
	int shift = 60;

	out_s(o, "0x");
	while (shift > 0 && ((v >> shift) & 15) == 0)
		shift -= 4;
	for (; shift >= 0; shift -= 4)
		out_c(o, "0123456789abcdef"[(v >> shift) & 15]);
}

static inline void out_i(struct dif_out *o, uint64_t v)
{
	if ((int64_t)v < 0) {
		out_c(o, '-');
		v = 0 - v;
	}
	out_u(o, v);
}

static inline void out_reg(struct dif_out *o, unsigned r)
{
	out_s(o, "%r");
	out_u(o, r);
}

/* A quoted string with C escapes: n bytes at s. */
static inline void out_q(struct dif_out *o, const char *s, size_t n)
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

static inline void out_end(struct dif_out *o)
{
	if (o->cap > 0)
		o->buf[o->len < o->cap ? o->len : o->cap - 1] = '\0';
}

/* ---- lookups shared by both directions ---------------------------------- */

/* First offset where s (n bytes, then NUL) occurs in tab; -1 if none. */
static inline int64_t dif_str_find(const char *tab, uint32_t tlen, const char *s,
                            size_t n)
{
	for (uint64_t off = 0; off + n < tlen; off++)
		if (__builtin_memcmp(tab + off, s, n) == 0 && tab[off + n] == '\0')
			return (int64_t)off;
	return -1;
}

static inline int64_t dif_int_find(const uint64_t *tab, uint32_t n, uint64_t v)
{
	for (uint32_t i = 0; i < n; i++)
		if (tab[i] == v)
			return i;
	return -1;
}

/* The variable id that `name` denotes for an opcode of `scope`; -1 if none. */
static inline int64_t dif_var_resolve(const dif_difo_t *dp, unsigned scope,
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

static inline bool dif_is_ident(const char *s)
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

#endif /* SONDE_DIF_DIF_TEXT_H */
