/*
 * dtc_dis.c - dtrace -S: the compiled DIF, as illumos's dtrace prints it.
 *
 * For each DIFO of the program, in the order the compiler made them (each
 * clause's predicate, then each action's arguments), -S prints on standard
 * error a header naming the type it returns, one line per instruction
 * (offset, the instruction word in hex, the instruction, and after "!" what
 * a table index stands for: the integer, the string, the variable's name,
 * the subroutine's name, the tuple entry's type: "D type" or "string"), then the variable table
 * (name, id, kind arr/scl, scope glb/tls/loc, r/w flags, type):
 *
 *   DIFO 0x... returns D type (integer) (size 8)
 *   OFF OPCODE      INSTRUCTION
 *   00: 33050001    ldgs DT_VAR(1280), %r1          ! DT_VAR(1280) = "x"
 *   01: 45000001    ret  %r1
 *
 *   NAME             ID   KND SCP FLAG TYPE
 *   x                500  scl glb r    D type (integer) (size 8)
 *
 * The words are Sonde's encoding (dif/dif_ops.def), whose opcodes follow
 * DTrace's DIF but not its numbering; the mnemonics are DTrace's (sll for
 * Sonde's shl).  This is not dif_disasm(), whose text the DIF assembler
 * reads back: that one is for tools and tests, this one for people used to
 * DTrace.  Every index is checked against its table before it is used.
 *
 * Context: the consumer's thread.
 *
 * Tests: tests/e2e/test_dtrace_listing.py (-S)
 */
#include "kernel/klib.h"
#include "console/dtrace/dtc.h"

#define DIS_LINE 320

static void dis_type(char *buf, size_t len, const dif_type_t *t, uint32_t strsize)
{
	uint32_t size = t->dt_kind == DIF_TYPE_STRING && t->dt_size == 0 ? strsize : t->dt_size;

	switch (t->dt_kind) {
	case DIF_TYPE_INT:
		ksnprintf(buf, len, "D type (integer) (size %u)", size);
		break;
	case DIF_TYPE_STRING:
		ksnprintf(buf, len, "string (unknown) by ref (size %u)", size);
		break;
	case DIF_TYPE_BLOB:
		ksnprintf(buf, len, "D type (unknown) by ref (size %u)", size);
		break;
	default:
		ksnprintf(buf, len, "D type (unknown) (size %u)", size);
		break;
	}
}

static const char *dis_str(const dif_difo_t *dp, uint32_t off)
{
	if (off >= dp->dd_strlen)
		return "<bad string offset>";
	for (uint32_t i = off; i < dp->dd_strlen; i++)
		if (dp->dd_strtab[i] == 0)
			return dp->dd_strtab + off;
	return "<unterminated>";
}

/* dis_varname: what variable id (of the scope op names) is called. */
static const char *dis_varname(const dif_difo_t *dp, unsigned op, uint32_t id)
{
	unsigned scope = dif_op_scope(op);

	for (uint32_t i = 0; i < dp->dd_nvars; i++)
		if (dp->dd_vartab[i].dv_id == id && dp->dd_vartab[i].dv_scope == scope)
			return dis_str(dp, dp->dd_vartab[i].dv_name);
	const dif_builtin_t *bi = dif_builtin_byid(id);
	return bi != NULL ? bi->bi_name : "?";
}

static const char *dis_mnemonic(const dif_opinfo_t *oi, unsigned op)
{
	return op == DIF_OP_SHL ? "sll" : oi->oi_name;
}

/* dis_operands: the instruction's operands and comment, after its mnemonic. */
static void dis_operands(char *b, size_t n, const dif_difo_t *dp, dif_instr_t in,
                         const dif_opinfo_t *oi)
{
	unsigned op = DIF_INSTR_OP(in), r1 = DIF_INSTR_R1(in), r2 = DIF_INSTR_R2(in);
	unsigned rd = DIF_INSTR_RD(in), idx = DIF_INSTR_INDEX(in);

	switch (oi->oi_fmt) {
	case DIF_FMT_RRR: case DIF_FMT_COPY:
		ksnprintf(b, n, "%%r%u, %%r%u, %%r%u", r1, r2, rd); break;
	case DIF_FMT_RR: ksnprintf(b, n, "%%r%u, %%r%u", r1, rd); break;
	case DIF_FMT_CMP: ksnprintf(b, n, "%%r%u, %%r%u", r1, r2); break;
	case DIF_FMT_TST: ksnprintf(b, n, "%%r%u", r1); break;
	case DIF_FMT_LD: ksnprintf(b, n, "[%%r%u], %%r%u", r1, rd); break;
	case DIF_FMT_ST: ksnprintf(b, n, "%%r%u, [%%r%u]", r1, rd); break;
	case DIF_FMT_BR: ksnprintf(b, n, "%u", DIF_INSTR_LABEL(in)); break;
	case DIF_FMT_SETX:
		if (idx < dp->dd_nints)
			ksnprintf(b, n, "DT_INTEGER[%u], %%r%u\t\t! 0x%lx", idx, rd, dp->dd_inttab[idx]);
		else
			ksnprintf(b, n, "DT_INTEGER[%u], %%r%u", idx, rd);
		break;
	case DIF_FMT_SETS:
		ksnprintf(b, n, "DT_STRING[%u], %%r%u\t\t! \"%s\"", idx, rd, dis_str(dp, idx)); break;
	case DIF_FMT_VLD:
		ksnprintf(b, n, "DT_VAR(%u), %%r%u\t\t! DT_VAR(%u) = \"%s\"", idx, rd, idx,
		          dis_varname(dp, op, idx));
		break;
	case DIF_FMT_VST:
		ksnprintf(b, n, "%%r%u, DT_VAR(%u)\t\t! DT_VAR(%u) = \"%s\"", rd, idx, idx,
		          dis_varname(dp, op, idx));
		break;
	case DIF_FMT_LDA:
		ksnprintf(b, n, "DT_VAR(%u), %%r%u, %%r%u\t\t! DT_VAR(%u) = \"%s\"", r1, r2, rd, r1,
		          dif_builtin_byid(r1) ? dif_builtin_byid(r1)->bi_name : "?");
		break;
	case DIF_FMT_CALL:
		ksnprintf(b, n, "DIF_SUBR(%u), %%r%u\t\t! %s", idx, rd,
		          dif_subrinfo(idx) ? dif_subrinfo(idx)->si_name : "?");
		break;
	case DIF_FMT_PUSHTR:                 /* DTrace names the tuple type only: "D type" or "string" */
		if (r1 <= 1)
			ksnprintf(b, n, "DT_TYPE(%u), %%r%u, %%r%u\t! DT_TYPE(%u) = %s", r1, r2, rd, r1,
			          r1 == DIF_TT_STR ? "string" : "D type");
		else
			ksnprintf(b, n, "DT_TYPE(%u), %%r%u, %%r%u", r1, r2, rd);
		break;
	case DIF_FMT_PUSHTV:
		ksnprintf(b, n, "DT_TYPE(0), %%r0, %%r%u\t! DT_TYPE(0) = D type", rd); break;
	case DIF_FMT_RET: ksnprintf(b, n, "%%r%u", rd); break;
	default: b[0] = 0; break;
	}
}

static void dis_insn(const dif_difo_t *dp, uint32_t pc)
{
	dif_instr_t in = dp->dd_insns[pc];
	const dif_opinfo_t *oi = dif_opinfo(DIF_INSTR_OP(in));
	char ops[DIS_LINE];

	if (oi == NULL) {
		dtc_err("%02u: %08x    (illegal opcode 0x%x)\n", pc, in, DIF_INSTR_OP(in));
		return;
	}
	dis_operands(ops, sizeof(ops), dp, in, oi);
	if (ops[0] == 0)
		dtc_err("%02u: %08x    %s\n", pc, in, dis_mnemonic(oi, DIF_INSTR_OP(in)));
	else
		dtc_err("%02u: %08x    %-4s %s\n", pc, in, dis_mnemonic(oi, DIF_INSTR_OP(in)), ops);
}

static void dis_vars(const dif_difo_t *dp, uint32_t strsize)
{
	static const char *const kinds[] = { "scl", "arr" };
	static const char *const scopes[] = { "glb", "tls", "loc" };
	char ty[80];

	if (dp->dd_nvars != 0)
		dtc_err("\n%-16s %-4s %-3s %-3s %-4s %s\n", "NAME", "ID", "KND", "SCP", "FLAG", "TYPE");
	for (uint32_t i = 0; i < dp->dd_nvars; i++) {
		const dif_var_t *v = &dp->dd_vartab[i];
		bool r = v->dv_flags & DIF_DVF_READ, w = v->dv_flags & DIF_DVF_WRITTEN;
		dis_type(ty, sizeof(ty), &v->dv_type, strsize);
		dtc_err("%-16s %-4x %-3s %-3s %-4s %s\n", dis_str(dp, v->dv_name), v->dv_id,
		        v->dv_kind <= DIF_VKIND_ARRAY ? kinds[v->dv_kind] : "?",
		        v->dv_scope <= DIF_SCOPE_LOCAL ? scopes[v->dv_scope] : "?",
		        r && w ? "r/w" : r ? "r" : w ? "w" : "", ty);
	}
}

static void dis_difo(const dif_difo_t *dp, uint32_t strsize)
{
	char ty[80];

	dis_type(ty, sizeof(ty), &dp->dd_rtype, strsize);
	dtc_err("\nDIFO 0x%lx returns %s\n", (unsigned long)(uintptr_t)dp, ty);
	dtc_err("%-3s %-8s    %s\n", "OFF", "OPCODE", "INSTRUCTION");
	for (uint32_t pc = 0; pc < dp->dd_ninsns; pc++)
		dis_insn(dp, pc);
	dis_vars(dp, strsize);
	dtc_err("\n");
}

void dtc_show_dif(struct dtc *d)
{
	uint32_t strsize = d->dc_ov.dov_strsize;

	for (uint32_t c = 0; c < d->dc_prog->dp_nclauses; c++) {
		const dt_clause *cl = &d->dc_prog->dp_clauses[c];
		if (cl->cl_pred != NULL)
			dis_difo(cl->cl_pred, strsize);
		for (uint32_t a = 0; a < cl->cl_nacts; a++)
			for (uint32_t k = 0; k < cl->cl_acts[a].ac_nargs; k++)
				if (cl->cl_acts[a].ac_args[k] != NULL)
					dis_difo(cl->cl_acts[a].ac_args[k], strsize);
	}
}
