/*
 * dif/dif_disasm.c: DIF to text (the format is described in dif_text.h).
 *
 * dif_disasm() prints the tables as directives, then one instruction per
 * line, with a label L<pc> before every branch target. Each operand is
 * printed by value when the assembler would map that value back to the
 * same table index, variable id or subroutine, and by index otherwise; an
 * instruction whose unused fields are not zero, or whose opcode is
 * unknown, is printed as `.word`. Nothing here can fail: malformed DIFOs
 * print too (that is what `difasm -d` on a rejected program is for), and
 * every read stays inside the DIFO's tables. Context: any; no allocation.
 *
 * Tests: tests/unit/dif_asm_test.c; make dif-check (round trip);
 *        tests/dlang/ (exact DIF)
 */
#include "dif/dif_text.h"

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
	*n = dif_nlen(dp->dd_strtab + off, dp->dd_strlen - off);
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
		size_t n = dif_nlen(dp->dd_strtab + off, dp->dd_strlen - off);
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
		n = dif_nlen(name, 64);
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
