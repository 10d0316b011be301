/*
 * dif/dif_insn_more.h: the interpreter's cases for the instructions that
 * reach memory, variables, built-ins, the tuple stack or a subroutine.
 * Not a header to include anywhere else: dif_emulate.c includes it twice,
 * inside the switch of its loop and inside dif_jit_callout's, so the
 * interpreter and the JIT's call-outs run one copy of this code (the same
 * checks, faults and side effects) while the loop stays one switch.
 *
 * Context of the cases (dif_emulate.c's macros): `r` the struct dif_run,
 * `st` and `dp`, `in` the instruction, `reg` the register file, `ca` `cb`
 * the condition pair, `f` and the label `out` for faults, `sres` an int.
 */
		case DIF_OP_SCMP:
			TRY(dif_strcmp_at(&r, R1, R2, &sres));
			SETCC((uint64_t)(int64_t)sres, 0);
			break;

		case DIF_OP_LDSB:  LOAD(1, DIF_SPACE_KERNEL, true); break;
		case DIF_OP_LDSH:  LOAD(2, DIF_SPACE_KERNEL, true); break;
		case DIF_OP_LDSW:  LOAD(4, DIF_SPACE_KERNEL, true); break;
		case DIF_OP_LDUB:  LOAD(1, DIF_SPACE_KERNEL, false); break;
		case DIF_OP_LDUH:  LOAD(2, DIF_SPACE_KERNEL, false); break;
		case DIF_OP_LDUW:  LOAD(4, DIF_SPACE_KERNEL, false); break;
		case DIF_OP_LDX:   LOAD(8, DIF_SPACE_KERNEL, false); break;
		case DIF_OP_ULDSB: LOAD(1, DIF_SPACE_USER, true); break;
		case DIF_OP_ULDSH: LOAD(2, DIF_SPACE_USER, true); break;
		case DIF_OP_ULDSW: LOAD(4, DIF_SPACE_USER, true); break;
		case DIF_OP_ULDUB: LOAD(1, DIF_SPACE_USER, false); break;
		case DIF_OP_ULDUH: LOAD(2, DIF_SPACE_USER, false); break;
		case DIF_OP_ULDUW: LOAD(4, DIF_SPACE_USER, false); break;
		case DIF_OP_ULDX:  LOAD(8, DIF_SPACE_USER, false); break;

		case DIF_OP_STB: TRY(dif_store(&r, RD, 1, R1)); break;
		case DIF_OP_STH: TRY(dif_store(&r, RD, 2, R1)); break;
		case DIF_OP_STW: TRY(dif_store(&r, RD, 4, R1)); break;
		case DIF_OP_STX: TRY(dif_store(&r, RD, 8, R1)); break;

		case DIF_OP_SETS:
			RD = dif_addr(dp->dd_strtab) + DIF_INSTR_INDEX(in);
			break;

		case DIF_OP_LDGA:
			TRY(dif_ldga(&r, DIF_INSTR_VAR8(in), R2, &RD));
			break;
		case DIF_OP_LDGS:
			TRY(dif_ldgs(&r, DIF_INSTR_INDEX(in), &RD));
			break;
#define VLD(scope, kind) TRY(dif_var_load(&r, DIF_INSTR_INDEX(in), scope, kind, &RD))
#define VST(scope, kind) TRY(dif_var_store(&r, DIF_INSTR_INDEX(in), scope, kind, RD))
		case DIF_OP_STGS:  VST(DIF_SCOPE_GLOBAL, DIF_VKIND_SCALAR); break;
		case DIF_OP_LDGAA: VLD(DIF_SCOPE_GLOBAL, DIF_VKIND_ARRAY); break;
		case DIF_OP_STGAA: VST(DIF_SCOPE_GLOBAL, DIF_VKIND_ARRAY); break;
		case DIF_OP_LDTS:  VLD(DIF_SCOPE_THREAD, DIF_VKIND_SCALAR); break;
		case DIF_OP_STTS:  VST(DIF_SCOPE_THREAD, DIF_VKIND_SCALAR); break;
		case DIF_OP_LDTAA: VLD(DIF_SCOPE_THREAD, DIF_VKIND_ARRAY); break;
		case DIF_OP_STTAA: VST(DIF_SCOPE_THREAD, DIF_VKIND_ARRAY); break;
		case DIF_OP_LDLS:  VLD(DIF_SCOPE_LOCAL, DIF_VKIND_SCALAR); break;
		case DIF_OP_STLS:  VST(DIF_SCOPE_LOCAL, DIF_VKIND_SCALAR); break;
#undef VLD
#undef VST

		case DIF_OP_PUSHTR:
			TRY(dif_push_ref(&r, DIF_INSTR_TYPE(in), R2, RD));
			break;
		case DIF_OP_PUSHTV: TRY(dif_push(&r, RD, 0)); break;
		case DIF_OP_POPTS:
			if (st->ds_ntuples > 0)
				st->ds_ntuples--;
			break;
		case DIF_OP_FLUSHTS: st->ds_ntuples = 0; break;

		case DIF_OP_CALL:  TRY(dif_call(&r, DIF_INSTR_INDEX(in), &RD)); break;
		case DIF_OP_ALLOCS: TRY(dif_allocs(&r, R1, &RD)); break;
		case DIF_OP_COPYS:
			TRY(dif_scratch_copy(&r, RD, R1, R2, DIF_SPACE_KERNEL));
			break;
