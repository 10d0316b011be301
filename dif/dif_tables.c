/*
 * dif/dif_tables.c: the constant tables everything else looks things up in.
 *
 * The opcode and subroutine descriptions are expansions of dif_ops.def and
 * dif_subr.def, indexed by opcode byte and subroutine id. The built-in
 * variables and fault names are listed here once, and so are the two
 * lookups the validator, the interpreter and the text form share: the
 * scope a variable opcode names and a DIFO's variable-table entry. All
 * tables are const; every function here is pure and safe in any context.
 *
 * Tests: tests/unit/dif_asm_test.c, tests/unit/dif_validate_test.c
 */
#include "dif/dif_impl.h"

#define N DIF_ROLE_N
#define R DIF_ROLE_R
#define W DIF_ROLE_W
#define I DIF_ROLE_I

static const dif_opinfo_t dif_ops[256] = {
#define DIF_OP(NAME, name, code, fmt, r1, r2, rd, flags, meaning) \
	[code] = { #name, DIF_FMT_##fmt, { r1, r2, rd }, (flags), meaning },
#include "dif/dif_ops.def"
#undef DIF_OP
};

#undef N
#undef R
#undef W
#undef I

const dif_opinfo_t *dif_opinfo(unsigned op)
{
	if (op >= 256 || dif_ops[op].oi_name == NULL)
		return NULL;
	return &dif_ops[op];
}

unsigned dif_op_scope(unsigned op)
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

const dif_var_t *dif_var_lookup(const dif_difo_t *dp, uint32_t id,
                                unsigned scope)
{
	for (uint32_t i = 0; i < dp->dd_nvars; i++)
		if (dp->dd_vartab[i].dv_id == id && dp->dd_vartab[i].dv_scope == scope)
			return &dp->dd_vartab[i];
	return NULL;
}

static const dif_subrinfo_t dif_subrs[DIF_SUBR_MAX] = {
#define DIF_SUBR(NAME, name, id, mn, mx, ret, flags, proto) \
	[id] = { #name, mn, mx, DIF_TYPE_##ret, (flags), proto },
#include "dif/dif_subr.def"
#undef DIF_SUBR
};

const dif_subrinfo_t *dif_subrinfo(unsigned id)
{
	if (id >= DIF_SUBR_MAX || dif_subrs[id].si_name == NULL)
		return NULL;
	return &dif_subrs[id];
}

#define INT DIF_TYPE_INT
#define STR DIF_TYPE_STRING
static const dif_builtin_t dif_builtins[] = {
	{ "args", DIF_VAR_ARGS, INT, 1 },
	{ "uregs", DIF_VAR_UREGS, INT, 1 },
	{ "arg0", DIF_VAR_ARG0 + 0, INT, 0 }, { "arg1", DIF_VAR_ARG0 + 1, INT, 0 },
	{ "arg2", DIF_VAR_ARG0 + 2, INT, 0 }, { "arg3", DIF_VAR_ARG0 + 3, INT, 0 },
	{ "arg4", DIF_VAR_ARG0 + 4, INT, 0 }, { "arg5", DIF_VAR_ARG0 + 5, INT, 0 },
	{ "arg6", DIF_VAR_ARG0 + 6, INT, 0 }, { "arg7", DIF_VAR_ARG0 + 7, INT, 0 },
	{ "arg8", DIF_VAR_ARG0 + 8, INT, 0 }, { "arg9", DIF_VAR_ARG0 + 9, INT, 0 },
	{ "probeprov", DIF_VAR_PROBEPROV, STR, 0 },
	{ "probemod", DIF_VAR_PROBEMOD, STR, 0 },
	{ "probefunc", DIF_VAR_PROBEFUNC, STR, 0 },
	{ "probename", DIF_VAR_PROBENAME, STR, 0 },
	{ "timestamp", DIF_VAR_TIMESTAMP, INT, 0 },
	{ "vtimestamp", DIF_VAR_VTIMESTAMP, INT, 0 },
	{ "walltimestamp", DIF_VAR_WALLTIMESTAMP, INT, 0 },
	{ "cpu", DIF_VAR_CPU, INT, 0 },
	{ "curthread", DIF_VAR_CURTHREAD, INT, 0 },
	{ "tid", DIF_VAR_TID, INT, 0 },
	{ "pid", DIF_VAR_PID, INT, 0 },
	{ "execname", DIF_VAR_EXECNAME, STR, 0 },
	{ "caller", DIF_VAR_CALLER, INT, 0 },
	{ "stackdepth", DIF_VAR_STACKDEPTH, INT, 0 },
	{ "errno", DIF_VAR_ERRNO, INT, 0 },
	{ "id", DIF_VAR_ID, INT, 0 },
	{ "epid", DIF_VAR_EPID, INT, 0 },
	{ "ppid", DIF_VAR_PPID, INT, 0 },
	{ "uid", DIF_VAR_UID, INT, 0 },
	{ "gid", DIF_VAR_GID, INT, 0 },
	{ "ucaller", DIF_VAR_UCALLER, INT, 0 },
	{ "ustackdepth", DIF_VAR_USTACKDEPTH, INT, 0 },
	{ "curcpu", DIF_VAR_CURCPU, INT, 0 },
	{ "ipl", DIF_VAR_IPL, INT, 0 },
};
#undef INT
#undef STR

#define DIF_NBUILTINS (sizeof(dif_builtins) / sizeof(dif_builtins[0]))

const dif_builtin_t *dif_builtin_lookup(const char *name, size_t n)
{
	for (size_t i = 0; i < DIF_NBUILTINS; i++)
		if (dif_name_eq(name, n, dif_builtins[i].bi_name))
			return &dif_builtins[i];
	return NULL;
}

const dif_builtin_t *dif_builtin_byid(uint32_t id)
{
	for (size_t i = 0; i < DIF_NBUILTINS; i++)
		if (dif_builtins[i].bi_id == id)
			return &dif_builtins[i];
	return NULL;
}

static const char *const dif_fault_names[DIF_FAULT_MAX] = {
#define DIF_FAULT(NAME, code, msg) [code] = #NAME,
#include "dif/dif_faults.def"
#undef DIF_FAULT
};

static const char *const dif_fault_messages[DIF_FAULT_MAX] = {
#define DIF_FAULT(NAME, code, msg) [code] = msg,
#include "dif/dif_faults.def"
#undef DIF_FAULT
};

const char *dif_fault_name(unsigned code)
{
	return code < DIF_FAULT_MAX ? dif_fault_names[code] : NULL;
}

const char *dif_fault_message(unsigned code)
{
	return code < DIF_FAULT_MAX ? dif_fault_messages[code] : NULL;
}
