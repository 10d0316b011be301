/*
 * tests/fuzz/dif_fuzz.c: libFuzzer target for DIF.
 *
 * Invariant: for any DIFO, dif_validate() returns without a sanitizer
 * report; if it accepts, dif_emulate() on the host model terminates after
 * at most ninsns instructions, without a sanitizer report, and, for the
 * quarter of the inputs with flag bits 6 and 7 set, the disassemble/
 * reassemble round trip is exact (those are also disassembled whether
 * valid or not). The text form is checked on every vector by dif-check.
 * Every valid DIFO the JIT translates (dif/dif_jit.h) also runs natively,
 * on each pass from the state the interpreter started from, and must leave
 * what it left: value or fault (code, pc, address), scratch, variables,
 * memory (jit_compare): the JIT is fuzzed by the same inputs.
 *
 * Input layout: byte 0 flags (bit 0: repair the program so it is likely
 * valid, bit 1: destructive, bit 2: user, bit 3: small strsize, bit 4: tiny
 * scratch, bit 5: string return type (with or without repair), bits 6+7:
 * check the text form),
 * byte 1 number of integers (& 15), byte 2 number of variables
 * (& 7), byte 3 string table length, then the integers (8 bytes each), the
 * variables (raw dif_var_t), the string table, and the rest as
 * instructions. Without repair most inputs are rejected, which fuzzes the
 * validator; with repair most are accepted, which fuzzes the interpreter
 * and the subroutines.
 *
 * Seeds: tests/fuzz/dif_seed.c writes every DIFO of the tree (the
 * tests/dif vectors, and every D program of tests/d and scripts compiled)
 * in this layout, unrepaired, into build/ (dif.mk): real programs that pass
 * validation and call subroutines with well-typed arguments. With
 * SONDE_FUZZ_STATS set the process prints at exit how many inputs passed
 * validation and how many runs faulted, which shows how much of the work
 * reaches the VM.
 */
#include "dif/dif.h"
#include "dif/dif_jit.h"
#include "tests/dif/dif_hostenv.h"

#include <sys/mman.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INSNS 256

static struct {
	unsigned long inputs, valid, runs, faults, jitted;
} stats;

static void stats_print(void)
{
	fprintf(stderr, "dif_fuzz: %lu inputs, %lu valid, %lu runs, %lu faulted, "
	        "%lu also run by the JIT\n",
	        stats.inputs, stats.valid, stats.runs, stats.faults, stats.jitted);
}

static uint32_t repair_var(const dif_difo_t *dp, unsigned op, uint32_t id)
{
	unsigned scope = dif_op_scope(op);
	unsigned kind = (dif_opinfo(op)->oi_flags & DIF_OF_TUPLE) ? DIF_VKIND_ARRAY :
	    DIF_VKIND_SCALAR;

	if (op == DIF_OP_LDGS && (id & 1))
		return DIF_VAR_ARG0 + id % (DIF_VAR_BUILTIN_MAX - DIF_VAR_ARG0);
	for (uint32_t i = 0; i < dp->dd_nvars; i++) {
		const dif_var_t *v = &dp->dd_vartab[(i + id) % dp->dd_nvars];
		if (v->dv_scope == scope && v->dv_kind == kind)
			return v->dv_id;
	}
	return id;
}

static void repair_vars(dif_var_t *v, uint32_t n, uint32_t strlen_)
{
	static const dif_type_t types[] = {
		{ DIF_TYPE_INT, DIF_TF_SIGNED, 0, 8 }, { DIF_TYPE_INT, 0, 0, 4 },
		{ DIF_TYPE_STRING, DIF_TF_BYREF, 0, 0 },
		{ DIF_TYPE_BLOB, DIF_TF_BYREF, 0, 16 },
	};

	for (uint32_t i = 0; i < n; i++) {
		v[i].dv_id = DIF_VAR_USER_BASE + i;
		v[i].dv_scope %= 3;
		v[i].dv_kind = v[i].dv_scope == DIF_SCOPE_LOCAL ? 0 : v[i].dv_kind & 1;
		v[i].dv_name = strlen_ ? v[i].dv_name % strlen_ : 0;
		v[i].dv_type = types[v[i].dv_type.dt_size & 3];
	}
}

static dif_instr_t repair_insn(const dif_difo_t *dp, uint32_t pc, dif_instr_t in)
{
	unsigned op = DIF_INSTR_OP(in) % (DIF_OP_MAX - 1) + 1;
	const dif_opinfo_t *oi = dif_opinfo(op);
	unsigned f[3] = { DIF_INSTR_R1(in) & 7, DIF_INSTR_R2(in) & 7,
	                  DIF_INSTR_RD(in) & 7 };
	uint32_t idx = DIF_INSTR_INDEX(in), n = dp->dd_ninsns;

	for (int k = 0; k < 3; k++) {
		if (oi->oi_role[k] == DIF_ROLE_N)
			f[k] = 0;
		if (oi->oi_role[k] == DIF_ROLE_W && f[k] == 0)
			f[k] = 1;
	}
	switch (oi->oi_fmt) {
	case DIF_FMT_BR:
		return DIF_INSTR_BRANCH(op, pc + 1 + DIF_INSTR_LABEL(in) % (n - pc - 1));
	case DIF_FMT_SETX:
		return dp->dd_nints ? DIF_INSTR_INDEXED(op, idx % dp->dd_nints, f[2]) :
		    DIF_INSTR_NOP;
	case DIF_FMT_SETS:
		return dp->dd_strlen ? DIF_INSTR_INDEXED(op, idx % dp->dd_strlen, f[2]) :
		    DIF_INSTR_NOP;
	case DIF_FMT_VLD: case DIF_FMT_VST:
		return DIF_INSTR_INDEXED(op, repair_var(dp, op, idx), f[2]);
	case DIF_FMT_CALL:
		return DIF_INSTR_INDEXED(op, idx % DIF_SUBR_MAX, f[2]);
	case DIF_FMT_LDA:
		return DIF_INSTR_MAKE(op, f[0] & 1, f[1], f[2]);
	case DIF_FMT_PUSHTR:
		return DIF_INSTR_MAKE(op, DIF_INSTR_R1(in) & 1, f[1], f[2]);
	default:
		return DIF_INSTR_MAKE(op, f[0], f[1], f[2]);
	}
}

static void check_round_trip(const dif_difo_t *dp)
{
	static char t1[1 << 17], t2[1 << 17];
	static dif_instr_t insns[MAX_INSNS + 1];
	static uint64_t ints[16];
	static char strs[4096];
	static dif_var_t vars[8];
	dif_asmbuf_t ab = { insns, MAX_INSNS + 1, ints, 16, strs, sizeof(strs),
	                    vars, 8 };
	dif_difo_t d2;
	char err[128];

	if (dif_disasm(dp, t1, sizeof(t1)) >= sizeof(t1))
		return;         /* its text does not fit this harness's buffer: nothing to compare */
	if (dif_asm(t1, strlen(t1), &ab, &d2, err, sizeof(err)) != 0 ||
	    d2.dd_ninsns != dp->dd_ninsns || d2.dd_nints != dp->dd_nints ||
	    d2.dd_strlen != dp->dd_strlen || d2.dd_nvars != dp->dd_nvars ||
	    memcmp(d2.dd_insns, dp->dd_insns, 4 * (size_t)dp->dd_ninsns) ||
	    memcmp(d2.dd_inttab, dp->dd_inttab, 8 * (size_t)dp->dd_nints) ||
	    memcmp(d2.dd_strtab, dp->dd_strtab, dp->dd_strlen) ||
	    memcmp(d2.dd_vartab, dp->dd_vartab, sizeof(dif_var_t) * dp->dd_nvars)) {
		fprintf(stderr, "round trip failed (%s):\n%s", err, t1);
		abort();
	}
	dif_disasm(&d2, t2, sizeof(t2));
	if (strcmp(t1, t2) != 0) {
		fprintf(stderr, "round trip text differs:\n%s---\n%s", t1, t2);
		abort();
	}
}

/*
 * jit_compare: when the JIT translates dp, its native code run from the
 * same starting state (hostenv h0, state st0, scratch sc0 of n bytes) must
 * leave what the interpreter left: the same fault (code, pc, address) or
 * value, the same scratch, variables and memory (*h, *st, scratch), the
 * same rand() and strtok() state.
 */
static void jit_compare(const dif_difo_t *dp, struct dif_hostenv *h, const struct dif_hostenv *h0,
                        dif_state_t *st, const dif_state_t *st0, uint8_t *scratch,
                        const uint8_t *sc0, size_t n, int f, uint64_t rv)
{
	static uint8_t code[1 << 18];
	static struct dif_hostenv hi;
	static uint8_t sci[4096];
	size_t len = dif_jit_translate(dp, code, sizeof(code));

	if (len == 0)
		return;
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return;
	memcpy(m, code, len);
	if (mprotect(m, len, PROT_READ | PROT_EXEC) == 0) {
		dif_state_t sti = *st;
		memcpy(&hi, h, sizeof(hi));
		memcpy(sci, scratch, n);
		memcpy(h, h0, sizeof(*h));               /* the interpreter's starting point */
		*st = *st0;
		memcpy(scratch, sc0, n);
		uint64_t jv = 0;
		int jf = ((dif_jit_fn)m)(st, &jv);
		stats.jitted++;
		bool same = jf == f && st->ds_fault.df_code == sti.ds_fault.df_code &&
		            (f == 0 ? jv == rv : st->ds_fault.df_pc == sti.ds_fault.df_pc &&
		                                 st->ds_fault.df_addr == sti.ds_fault.df_addr) &&
		            memcmp(h, &hi, sizeof(hi)) == 0 && memcmp(scratch, sci, n) == 0 &&
		            st->ds_rand == sti.ds_rand && st->ds_strtok == sti.ds_strtok &&
		            st->ds_scratch_used == sti.ds_scratch_used && st->ds_ntuples == 0;
		if (!same) {
			fprintf(stderr, "JIT differs: fault %d pc %u addr %llx value %llu, interpreter "
			        "fault %d pc %u addr %llx value %llu (or state)\n", jf, st->ds_fault.df_pc,
			        (unsigned long long)st->ds_fault.df_addr, (unsigned long long)jv,
			        f, sti.ds_fault.df_pc, (unsigned long long)sti.ds_fault.df_addr,
			        (unsigned long long)rv);
			abort();
		}
		st->ds_insns = sti.ds_insns;             /* the interpreter's count, for the check below */
	}
	munmap(m, len);
}

static void run(const dif_difo_t *dp, unsigned flags)
{
	static struct dif_hostenv h;
	static bool inited;
	static uint8_t scratch[2048];
	dif_state_t st;
	uint64_t rv;

	if (!inited)
		dif_hostenv_init(&h);
	inited = true;
	dif_hostenv_reset(&h);
	dif_state_init(&st, &h.env, scratch, (flags & 16) ? 40 : sizeof(scratch),
	               (flags & 8) ? 16 : 256);
	st.ds_flags = (flags & 2) ? DIF_RUN_DESTRUCTIVE : 0;
	for (int i = 0; i < DIF_NARGS; i++)
		st.ds_args[i] = HOSTENV_KMEM + 8 * (uint64_t)i;
	for (int pass = 0; pass < 2; pass++) {
		static struct dif_hostenv h0;
		static uint8_t sc0[sizeof(scratch)];
		st.ds_insns = 0;
		st.ds_scratch_used = 0;
		stats.runs++;
		dif_state_t st0 = st;
		memcpy(&h0, &h, sizeof(h0));
		memcpy(sc0, scratch, sizeof(scratch));
		int f = dif_emulate(dp, &st, &rv);
		if (f != 0)
			stats.faults++;
		jit_compare(dp, &h, &h0, &st, &st0, scratch, sc0, sizeof(scratch), f, rv);
		if (st.ds_insns > dp->dd_ninsns) {
			fprintf(stderr, "executed %llu > %u instructions\n",
			        (unsigned long long)st.ds_insns, dp->dd_ninsns);
			abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static dif_instr_t insns[MAX_INSNS + 1];
	static uint64_t ints[16];
	static char strs[256];
	static dif_var_t vars[8];
	static char text[1 << 17];
	dif_difo_t dp = { insns, 0, ints, 0, strs, 0, vars, 0,
	                  { DIF_TYPE_INT, DIF_TF_SIGNED, 0, 8 } };
	unsigned flags;
	size_t need;

	if (stats.inputs++ == 0 && getenv("SONDE_FUZZ_STATS") != NULL)
		atexit(stats_print);
	if (size < 4)
		return 0;
	flags = data[0];
	dp.dd_nints = data[1] & 15;
	dp.dd_nvars = data[2] & 7;
	dp.dd_strlen = data[3];
	need = 4 + 8 * dp.dd_nints + sizeof(dif_var_t) * dp.dd_nvars + dp.dd_strlen;
	if (size < need)
		return 0;
	memcpy(ints, data + 4, 8 * dp.dd_nints);
	memcpy(vars, data + 4 + 8 * dp.dd_nints, sizeof(dif_var_t) * dp.dd_nvars);
	memcpy(strs, data + need - dp.dd_strlen, dp.dd_strlen);
	dp.dd_ninsns = (uint32_t)((size - need) / 4);
	if (dp.dd_ninsns > MAX_INSNS)
		dp.dd_ninsns = MAX_INSNS;
	memcpy(insns, data + need, 4 * (size_t)dp.dd_ninsns);
	if (flags & 1) {
		if (dp.dd_strlen)
			strs[dp.dd_strlen - 1] = '\0';
		repair_vars(vars, dp.dd_nvars, dp.dd_strlen);
		insns[dp.dd_ninsns++] = DIF_INSTR_RET(insns[0] & 7);
		for (uint32_t pc = 0; pc + 1 < dp.dd_ninsns; pc++)
			insns[pc] = repair_insn(&dp, pc, insns[pc]);
	}
	if (flags & 32)
		dp.dd_rtype = (dif_type_t){ DIF_TYPE_STRING, DIF_TF_BYREF, 0, 0 };
	if ((flags & 0xc0) == 0xc0)
		dif_disasm(&dp, text, sizeof(text));
	if (dif_validate(&dp, ((flags & 2) ? DIF_VF_DESTRUCTIVE : 0) |
	                 ((flags & 4) ? DIF_VF_USER : 0), NULL, NULL) != 0)
		return 0;
	stats.valid++;
	if ((flags & 0xc0) == 0xc0)
		check_round_trip(&dp);
	run(&dp, flags);
	return 0;
}
