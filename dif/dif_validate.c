/*
 * dif/dif_validate.c: the DIF validator.
 *
 * The kernel runs only DIFOs that dif_validate() accepted, and accepts a
 * DIFO from the console consumer exactly as it would from an untrusted
 * process. The validator is table-driven: the operand roles and the format
 * of each opcode come from dif_ops.def, so the per-instruction check is
 *
 *   1. the opcode exists;
 *   2. each byte field obeys its role: N fields are zero, R fields name a
 *      register (< DIF_NREGS), W fields name a register other than %r0;
 *   3. the format's immediate is in range: branch labels point strictly
 *      forward and inside the program, table indices and string offsets
 *      inside their tables, variables exist with the right scope and kind,
 *      subroutines exist and are permitted by `flags`.
 *
 * and the whole-program checks are: sane table sizes, a NUL-terminated
 * string table, a well-formed variable table and return type, and a final
 * ret. Because every branch goes forward, an accepted program executes at
 * most ninsns instructions. The validator does not stop at the first
 * problem: it reports every one, each with its pc.
 *
 * Context: any. No allocation, no globals; linear in the DIFO's size.
 *
 * Tests: tests/unit/dif_validate_test.c; tests/dif/invalid_*.dift; make
 *        dif-fuzz
 */
#include "dif/dif.h"

struct dif_vctx {
	const dif_difo_t *dp;
	unsigned          flags;
	dif_report_fn    *report;
	void             *arg;
	unsigned          nerr;
};

static void dif_bad(struct dif_vctx *v, uint32_t pc, const char *why)
{
	v->nerr++;
	if (v->report != NULL)
		v->report(v->arg, pc, why);
}

/* ---- tables ------------------------------------------------------------- */

static bool dif_type_ok(const dif_type_t *t)
{
	switch (t->dt_kind) {
	case DIF_TYPE_INT:
		return !(t->dt_flags & ~DIF_TF_SIGNED) && t->dt_pad == 0 &&
		    (t->dt_size == 1 || t->dt_size == 2 || t->dt_size == 4 ||
		     t->dt_size == 8);
	case DIF_TYPE_STRING:
		return t->dt_flags == DIF_TF_BYREF && t->dt_pad == 0;
	case DIF_TYPE_BLOB:
		return t->dt_flags == DIF_TF_BYREF && t->dt_pad == 0 &&
		    t->dt_size != 0;
	case DIF_TYPE_VOID:
		return t->dt_flags == 0 && t->dt_pad == 0 && t->dt_size == 0;
	default:
		return false;
	}
}

static void dif_check_var(struct dif_vctx *v, uint32_t i)
{
	const dif_var_t *dv = &v->dp->dd_vartab[i];

	if (dv->dv_id < DIF_VAR_USER_BASE || dv->dv_id > DIF_VAR_MAX)
		dif_bad(v, DIF_PC_NONE, "variable table: id outside the user range");
	if (dv->dv_scope > DIF_SCOPE_LOCAL)
		dif_bad(v, DIF_PC_NONE, "variable table: unknown scope");
	if (dv->dv_kind > DIF_VKIND_ARRAY ||
	    (dv->dv_scope == DIF_SCOPE_LOCAL && dv->dv_kind == DIF_VKIND_ARRAY))
		dif_bad(v, DIF_PC_NONE, "variable table: unknown kind");
	if (dv->dv_name >= v->dp->dd_strlen)
		dif_bad(v, DIF_PC_NONE, "variable table: name outside the string table");
	if (!dif_type_ok(&dv->dv_type) || dv->dv_type.dt_kind == DIF_TYPE_VOID)
		dif_bad(v, DIF_PC_NONE, "variable table: bad type");
	for (uint32_t j = 0; j < i; j++)
		if (v->dp->dd_vartab[j].dv_id == dv->dv_id &&
		    v->dp->dd_vartab[j].dv_scope == dv->dv_scope)
			dif_bad(v, DIF_PC_NONE, "variable table: duplicate id in one scope");
}

/* The tables; false if the instructions cannot even be looked at. */
static bool dif_check_tables(struct dif_vctx *v)
{
	const dif_difo_t *dp = v->dp;

	if (dp->dd_ninsns == 0 || dp->dd_insns == NULL) {
		dif_bad(v, DIF_PC_NONE, "no instructions");
		return false;
	}
	if (dp->dd_ninsns > DIF_MAX_INSNS)
		dif_bad(v, DIF_PC_NONE, "too many instructions");
	if (dp->dd_nints > DIF_MAX_INTTAB || (dp->dd_nints && !dp->dd_inttab))
		dif_bad(v, DIF_PC_NONE, "bad integer table");
	if (dp->dd_strlen > DIF_MAX_STRTAB || (dp->dd_strlen && !dp->dd_strtab))
		dif_bad(v, DIF_PC_NONE, "bad string table");
	else if (dp->dd_strlen && dp->dd_strtab[dp->dd_strlen - 1] != '\0')
		dif_bad(v, DIF_PC_NONE, "string table not NUL-terminated");
	if (dp->dd_nvars && dp->dd_vartab == NULL)
		dif_bad(v, DIF_PC_NONE, "bad variable table");
	else
		for (uint32_t i = 0; i < dp->dd_nvars; i++)
			dif_check_var(v, i);
	if (!dif_type_ok(&dp->dd_rtype))
		dif_bad(v, DIF_PC_NONE, "bad return type");
	return dp->dd_ninsns <= DIF_MAX_INSNS;
}

/* ---- instructions ------------------------------------------------------- */

static void dif_check_roles(struct dif_vctx *v, uint32_t pc, dif_instr_t in,
                            const dif_opinfo_t *oi)
{
	static const char *const nz[3] = {
		"unused field r1 not zero", "unused field r2 not zero",
		"unused field rd not zero" };
	static const char *const badreg[3] = {
		"bad register in r1", "bad register in r2", "bad register in rd" };
	unsigned field[3] = { DIF_INSTR_R1(in), DIF_INSTR_R2(in), DIF_INSTR_RD(in) };

	for (int k = 0; k < 3; k++) {
		switch (oi->oi_role[k]) {
		case DIF_ROLE_N:
			if (field[k] != 0)
				dif_bad(v, pc, nz[k]);
			break;
		case DIF_ROLE_R:
		case DIF_ROLE_W:
			if (field[k] >= DIF_NREGS)
				dif_bad(v, pc, badreg[k]);
			else if (oi->oi_role[k] == DIF_ROLE_W && field[k] == 0)
				dif_bad(v, pc, "write to %r0");
			break;
		default:
			break;
		}
	}
}

/* The id of a variable opcode: a user variable of the opcode's scope and kind. */
static void dif_check_var_ref(struct dif_vctx *v, uint32_t pc, unsigned op,
                              const dif_opinfo_t *oi, uint32_t id)
{
	unsigned kind = (oi->oi_flags & DIF_OF_TUPLE) ? DIF_VKIND_ARRAY :
	    DIF_VKIND_SCALAR;
	const dif_builtin_t *bi;
	const dif_var_t *dv;

	if (id < DIF_VAR_USER_BASE) {
		bi = dif_builtin_byid(id);
		if (op != DIF_OP_LDGS)
			dif_bad(v, pc, op == DIF_OP_STGS ? "store to a built-in variable" :
			        "built-in variable used with a user-variable opcode");
		else if (bi == NULL || bi->bi_array)
			dif_bad(v, pc, "unknown built-in variable");
		return;
	}
	dv = dif_var_lookup(v->dp, id, dif_op_scope(op));
	if (dv == NULL)
		dif_bad(v, pc, "variable not in the variable table");
	else if (dv->dv_kind != kind)
		dif_bad(v, pc, "variable used as the wrong kind (scalar/array)");
}

static void dif_check_call(struct dif_vctx *v, uint32_t pc, uint32_t id)
{
	const dif_subrinfo_t *si = dif_subrinfo(id);

	if (si == NULL)
		dif_bad(v, pc, "unknown subroutine");
	else if ((si->si_flags & DIF_SF_DESTRUCTIVE) &&
	         !(v->flags & DIF_VF_DESTRUCTIVE))
		dif_bad(v, pc, "destructive subroutine not permitted");
	else if ((si->si_flags & DIF_SF_USER) && !(v->flags & DIF_VF_USER))
		dif_bad(v, pc, "user-memory subroutine not permitted");
}

static void dif_check_imm(struct dif_vctx *v, uint32_t pc, dif_instr_t in,
                          const dif_opinfo_t *oi)
{
	const dif_difo_t *dp = v->dp;
	unsigned op = DIF_INSTR_OP(in);

	switch (oi->oi_fmt) {
	case DIF_FMT_BR:
		if (DIF_INSTR_LABEL(in) <= pc)
			dif_bad(v, pc, "branch backwards or to itself");
		else if (DIF_INSTR_LABEL(in) >= dp->dd_ninsns)
			dif_bad(v, pc, "branch out of range");
		break;
	case DIF_FMT_SETX:
		if (DIF_INSTR_INDEX(in) >= dp->dd_nints)
			dif_bad(v, pc, "integer table index out of range");
		break;
	case DIF_FMT_SETS:
		if (DIF_INSTR_INDEX(in) >= dp->dd_strlen)
			dif_bad(v, pc, "string table offset out of range");
		break;
	case DIF_FMT_VLD:
	case DIF_FMT_VST:
		dif_check_var_ref(v, pc, op, oi, DIF_INSTR_INDEX(in));
		break;
	case DIF_FMT_LDA:
		if (DIF_INSTR_VAR8(in) != DIF_VAR_ARGS &&
		    DIF_INSTR_VAR8(in) != DIF_VAR_UREGS)
			dif_bad(v, pc, "unknown built-in array");
		break;
	case DIF_FMT_CALL:
		dif_check_call(v, pc, DIF_INSTR_INDEX(in));
		break;
	case DIF_FMT_PUSHTR:
		if (DIF_INSTR_TYPE(in) != DIF_TT_MEM && DIF_INSTR_TYPE(in) != DIF_TT_STR)
			dif_bad(v, pc, "unknown tuple type");
		break;
	default:
		break;
	}
	if ((oi->oi_flags & DIF_OF_USER) && !(v->flags & DIF_VF_USER))
		dif_bad(v, pc, "user-memory load not permitted");
}

static void dif_check_insn(struct dif_vctx *v, uint32_t pc)
{
	dif_instr_t in = v->dp->dd_insns[pc];
	const dif_opinfo_t *oi = dif_opinfo(DIF_INSTR_OP(in));

	if (oi == NULL) {
		dif_bad(v, pc, "unknown opcode");
		return;
	}
	dif_check_roles(v, pc, in, oi);
	dif_check_imm(v, pc, in, oi);
}

unsigned dif_validate(const dif_difo_t *dp, unsigned flags,
                      dif_report_fn *report, void *arg)
{
	struct dif_vctx v = { dp, flags, report, arg, 0 };
	uint32_t last;

	if (!dif_check_tables(&v))
		return v.nerr;
	for (uint32_t pc = 0; pc < dp->dd_ninsns; pc++)
		dif_check_insn(&v, pc);
	last = dp->dd_ninsns - 1;
	if (DIF_INSTR_OP(dp->dd_insns[last]) != DIF_OP_RET)
		dif_bad(&v, last, "missing final ret");
	return v.nerr;
}
