/*
 * dif/dif.h: DIF, the D Intermediate Format: the safe bytecode that D
 * predicates and actions compile to, and the only code a user may run in
 * probe context.
 *
 * Theory. A DIF object (DIFO) is a straight-line-or-forward-branching program
 * for a tiny register machine: eight 64-bit registers (%r0 reads as zero and
 * is never written), four condition-code bits (n z v c, set by cmp/tst/scmp),
 * a tuple stack that carries associative-array keys and subroutine
 * arguments, and a scratch buffer that the caller lends for the duration of
 * a run. Instructions are 32 bits. Branches only go forward, so a validated
 * program executes at most ninsns instructions: termination is a property of
 * the encoding, checked once by dif_validate() before the DIFO is enabled.
 * Everything that can still go wrong at run time (a bad address, a
 * misaligned load, division by zero, scratch or tuple-stack exhaustion)
 * stops the program with a fault code, the faulting address and pc; nothing
 * the program does can crash its host.
 *
 * dif/ is freestanding: it runs in the kernel (probe context: interrupts
 * off, no sleeping, no locks) and on the host (tests, tools, the compiler).
 * It touches memory outside the DIFO and the scratch buffer only through the
 * callbacks of dif_env_t, and it has no mutable globals: all per-run state is
 * in the dif_state_t the caller passes, one per CPU.
 *
 * Reading order: the instruction formats and opcodes (this file and
 * dif_ops.def), the DIFO, the environment, then dif_validate.c,
 * dif_emulate.c, dif_subr.c, dif_asm.c. docs/dif.md is the prose version.
 */
#ifndef SONDE_DIF_DIF_H
#define SONDE_DIF_DIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Instruction formats. Bit 31 is on the left; every field is a byte except
 * the 24-bit label and the 16-bit index/var/subr fields.
 *
 *         31      24 23      16 15       8 7        0
 *        +----------+----------+----------+----------+
 *  RRR   |    op    |    r1    |    r2    |    rd    |  add %r1, %r2, %rd
 *  RR    |    op    |    r1    |    0     |    rd    |  mov %r1, %rd
 *  CMP   |    op    |    r1    |    r2    |    0     |  cmp %r1, %r2
 *  TST   |    op    |    r1    |    0     |    0     |  tst %r1
 *  LD    |    op    |    r1    |    0     |    rd    |  ldx [%r1], %rd
 *  ST    |    op    |    r1    |    0     |    rd    |  stx %r1, [%rd]
 *  COPY  |    op    |    r1    |    r2    |    rd    |  copys %r1, %r2, %rd
 *  BR    |    op    |          label (24)            |  be 12  (absolute pc)
 *  SETX  |    op    |      index (16)     |    rd    |  setx 42, %rd
 *  SETS  |    op    |     offset (16)     |    rd    |  sets "abc", %rd
 *  VLD   |    op    |       var (16)      |    rd    |  ldgs timestamp, %rd
 *  VST   |    op    |       var (16)      |    rs    |  stgs x, %rs
 *  LDA   |    op    |  var (8) |    r2    |    rd    |  ldga args, %r2, %rd
 *  CALL  |    op    |      subr (16)      |    rd    |  call strlen, %rd
 *  PUSHTR|    op    | type (8) |    r2    |    rs    |  pushtr str, %r2, %rs
 *  PUSHTV|    op    |    0     |    0     |    rs    |  pushtv %rs
 *  RET   |    op    |    0     |    0     |    rd    |  ret %rd
 *  NONE  |    op    |    0     |    0     |    0     |  nop
 *        +----------+----------+----------+----------+
 *
 * Unused fields must be zero (the validator checks). The opcodes, with one
 * line of meaning each, are in dif_ops.def.
 */
typedef uint32_t dif_instr_t;

#define DIF_INSTR_OP(i)     (((i) >> 24) & 0xffu)
#define DIF_INSTR_R1(i)     (((i) >> 16) & 0xffu)
#define DIF_INSTR_R2(i)     (((i) >> 8) & 0xffu)
#define DIF_INSTR_RD(i)     ((i) & 0xffu)
#define DIF_INSTR_RS(i)     DIF_INSTR_RD(i)
#define DIF_INSTR_LABEL(i)  ((i) & 0xffffffu)
#define DIF_INSTR_INDEX(i)  (((i) >> 8) & 0xffffu)   /* SETX SETS VLD VST CALL */
#define DIF_INSTR_VAR8(i)   DIF_INSTR_R1(i)          /* LDA */
#define DIF_INSTR_TYPE(i)   DIF_INSTR_R1(i)          /* PUSHTR */

#define DIF_INSTR_MAKE(op, r1, r2, rd) \
	((dif_instr_t)(((uint32_t)(op) << 24) | (((uint32_t)(r1) & 0xffu) << 16) | \
	               (((uint32_t)(r2) & 0xffu) << 8) | ((uint32_t)(rd) & 0xffu)))
#define DIF_INSTR_RRR(op, r1, r2, rd)  DIF_INSTR_MAKE(op, r1, r2, rd)
#define DIF_INSTR_RR(op, r1, rd)       DIF_INSTR_MAKE(op, r1, 0, rd)
#define DIF_INSTR_CMP(op, r1, r2)      DIF_INSTR_MAKE(op, r1, r2, 0)
#define DIF_INSTR_TST(r1)              DIF_INSTR_MAKE(DIF_OP_TST, r1, 0, 0)
#define DIF_INSTR_LOAD(op, r1, rd)     DIF_INSTR_MAKE(op, r1, 0, rd)
#define DIF_INSTR_STORE(op, r1, rd)    DIF_INSTR_MAKE(op, r1, 0, rd)
#define DIF_INSTR_BRANCH(op, label) \
	((dif_instr_t)(((uint32_t)(op) << 24) | ((uint32_t)(label) & 0xffffffu)))
#define DIF_INSTR_INDEXED(op, index, rd) \
	((dif_instr_t)(((uint32_t)(op) << 24) | (((uint32_t)(index) & 0xffffu) << 8) | \
	               ((uint32_t)(rd) & 0xffu)))
#define DIF_INSTR_SETX(index, rd)      DIF_INSTR_INDEXED(DIF_OP_SETX, index, rd)
#define DIF_INSTR_SETS(offset, rd)     DIF_INSTR_INDEXED(DIF_OP_SETS, offset, rd)
#define DIF_INSTR_VLOAD(op, var, rd)   DIF_INSTR_INDEXED(op, var, rd)
#define DIF_INSTR_VSTORE(op, var, rs)  DIF_INSTR_INDEXED(op, var, rs)
#define DIF_INSTR_LDGA(var8, r2, rd)   DIF_INSTR_MAKE(DIF_OP_LDGA, var8, r2, rd)
#define DIF_INSTR_CALL(subr, rd)       DIF_INSTR_INDEXED(DIF_OP_CALL, subr, rd)
#define DIF_INSTR_PUSHTR(type, r2, rs) DIF_INSTR_MAKE(DIF_OP_PUSHTR, type, r2, rs)
#define DIF_INSTR_PUSHTV(rs)           DIF_INSTR_MAKE(DIF_OP_PUSHTV, 0, 0, rs)
#define DIF_INSTR_RET(rd)              DIF_INSTR_MAKE(DIF_OP_RET, 0, 0, rd)
#define DIF_INSTR_NOP                  DIF_INSTR_MAKE(DIF_OP_NOP, 0, 0, 0)
#define DIF_INSTR_FLUSHTS              DIF_INSTR_MAKE(DIF_OP_FLUSHTS, 0, 0, 0)
#define DIF_INSTR_POPTS                DIF_INSTR_MAKE(DIF_OP_POPTS, 0, 0, 0)

/* Machine limits. */
#define DIF_NREGS        8        /* %r0 .. %r7; %r0 is always 0 */
#define DIF_MAX_INSNS    0xffffffu /* labels are 24 bits */
#define DIF_MAX_INTTAB   0x10000u
#define DIF_MAX_STRTAB   0x10000u
#define DIF_TUPLE_MAX    8        /* tuple stack depth (DTrace's default) */
#define DIF_NARGS        10       /* arg0 .. arg9 */
#define DIF_STRSIZE_DEFAULT 256

/* Encoding formats (the FMT column of dif_ops.def). */
enum dif_fmt {
	DIF_FMT_RRR, DIF_FMT_RR, DIF_FMT_CMP, DIF_FMT_TST, DIF_FMT_LD, DIF_FMT_ST,
	DIF_FMT_COPY, DIF_FMT_BR, DIF_FMT_SETX, DIF_FMT_SETS, DIF_FMT_VLD,
	DIF_FMT_VST, DIF_FMT_LDA, DIF_FMT_CALL, DIF_FMT_PUSHTR, DIF_FMT_PUSHTV,
	DIF_FMT_RET, DIF_FMT_NONE,
};

/* Operand roles of the r1, r2, rd byte fields (the r1 r2 rd columns). */
enum dif_role { DIF_ROLE_N, DIF_ROLE_R, DIF_ROLE_W, DIF_ROLE_I };

/* Opcode flags (the flags column). */
#define DIF_OF_ALU     0x01u  /* integer arithmetic/logic */
#define DIF_OF_CC      0x02u  /* sets condition codes */
#define DIF_OF_BRANCH  0x04u  /* conditional or unconditional forward branch */
#define DIF_OF_LOAD    0x08u  /* reads memory through the environment */
#define DIF_OF_STORE   0x10u  /* writes scratch memory */
#define DIF_OF_CALL    0x20u  /* calls a subroutine */
#define DIF_OF_VAR     0x40u  /* names a variable */
#define DIF_OF_TUPLE   0x80u  /* uses the tuple stack */
#define DIF_OF_USER    0x100u /* user address space */
#define DIF_OF_RET     0x200u /* ends the program */

/* The opcodes: DIF_OP_ADD = 0x01, ... (0 is never a valid opcode). */
enum dif_op {
	DIF_OP_INVALID = 0,
#define DIF_OP(NAME, name, code, fmt, r1, r2, rd, flags, meaning) DIF_OP_##NAME = code,
#include "dif/dif_ops.def"
#undef DIF_OP
	DIF_OP_MAX
};

/* Static description of one opcode, indexed by opcode byte (see dif_asm.c). */
typedef struct dif_opinfo {
	const char *oi_name;     /* mnemonic, lower case; NULL for holes */
	uint8_t     oi_fmt;      /* enum dif_fmt */
	uint8_t     oi_role[3];  /* enum dif_role for r1, r2, rd */
	uint16_t    oi_flags;    /* DIF_OF_* */
	const char *oi_meaning;  /* one line */
} dif_opinfo_t;

/*
 * dif_opinfo: description of opcode `op`, or NULL if op is not an opcode.
 * Context: any; pure.
 */
const dif_opinfo_t *dif_opinfo(unsigned op);

/*
 * Types. A value is either an integer of 1, 2, 4 or 8 bytes held in a
 * register, or a reference (a register holding an address) to a string of
 * at most `size` bytes including the NUL, or to `size` bytes of memory.
 */
enum dif_type_kind {
	DIF_TYPE_INT    = 0,   /* integer or pointer, size 1/2/4/8 */
	DIF_TYPE_STRING = 1,   /* NUL-terminated, by reference */
	DIF_TYPE_BLOB   = 2,   /* size bytes of memory, by reference */
	DIF_TYPE_VOID   = 3,   /* no value */
};
#define DIF_TF_SIGNED  0x01u   /* INT: signed */
#define DIF_TF_BYREF   0x02u   /* the register holds an address (STRING, BLOB) */

typedef struct dif_type {
	uint8_t  dt_kind;   /* enum dif_type_kind */
	uint8_t  dt_flags;  /* DIF_TF_* */
	uint16_t dt_pad;    /* zero */
	uint32_t dt_size;   /* bytes; for STRING the bound (0 = strsize) */
} dif_type_t;

/*
 * Variables. Built-in variables have fixed ids below DIF_VAR_USER_BASE;
 * user variables (D globals, self-> thread-locals, this-> clause-locals)
 * have ids from DIF_VAR_USER_BASE, unique within their scope, and must be
 * listed in the DIFO's variable table.
 */
enum dif_var_scope {
	DIF_SCOPE_GLOBAL = 0,   /* shared by all clauses and threads */
	DIF_SCOPE_THREAD = 1,   /* self->x: one per thread */
	DIF_SCOPE_LOCAL  = 2,   /* this->x: one per probe firing */
};
enum dif_var_kind {
	DIF_VKIND_SCALAR = 0,
	DIF_VKIND_ARRAY  = 1,   /* associative, keyed by a tuple */
};

/* Built-in arrays (ldga; the 8-bit var field). */
#define DIF_VAR_ARGS      0x0000u  /* args[i]: probe arguments */
#define DIF_VAR_UREGS     0x0001u  /* uregs[i]: user registers */
/* Built-in scalars (ldgs). */
#define DIF_VAR_ARG0      0x0100u  /* .. DIF_VAR_ARG9 = 0x0109 */
#define DIF_VAR_ARG9      0x0109u
#define DIF_VAR_PROBEPROV 0x010au  /* string */
#define DIF_VAR_PROBEMOD  0x010bu  /* string */
#define DIF_VAR_PROBEFUNC 0x010cu  /* string */
#define DIF_VAR_PROBENAME 0x010du  /* string */
#define DIF_VAR_TIMESTAMP 0x010eu  /* ns since boot */
#define DIF_VAR_VTIMESTAMP 0x010fu /* ns on cpu for this thread */
#define DIF_VAR_WALLTIMESTAMP 0x0110u /* ns since the epoch */
#define DIF_VAR_CPU       0x0111u
#define DIF_VAR_CURTHREAD 0x0112u  /* address of the thread structure */
#define DIF_VAR_TID       0x0113u
#define DIF_VAR_PID       0x0114u
#define DIF_VAR_EXECNAME  0x0115u  /* string */
#define DIF_VAR_CALLER    0x0116u  /* PC of the probed function's caller */
#define DIF_VAR_STACKDEPTH 0x0117u
#define DIF_VAR_ERRNO     0x0118u
#define DIF_VAR_ID        0x0119u  /* probe id */
#define DIF_VAR_EPID      0x011au  /* enabled probe id */
#define DIF_VAR_PPID      0x011bu
#define DIF_VAR_UID       0x011cu
#define DIF_VAR_UCALLER   0x011du
#define DIF_VAR_USTACKDEPTH 0x011eu
#define DIF_VAR_CURCPU    0x011fu  /* address of the cpu structure */
#define DIF_VAR_IPL       0x0120u
#define DIF_VAR_GID       0x0121u  /* the process's real group id (uid: its real user id) */
#define DIF_VAR_BUILTIN_MAX 0x0122u
#define DIF_VAR_USER_BASE 0x0500u
#define DIF_VAR_MAX       0xffffu

typedef struct dif_var {
	uint32_t   dv_name;    /* offset of the name in the string table */
	uint32_t   dv_id;      /* >= DIF_VAR_USER_BASE */
	uint8_t    dv_scope;   /* enum dif_var_scope */
	uint8_t    dv_kind;    /* enum dif_var_kind */
	uint16_t   dv_flags;   /* DIF_VF_READ | DIF_VF_WRITTEN: informational */
	dif_type_t dv_type;    /* type of the value (of an element for arrays) */
} dif_var_t;
#define DIF_DVF_READ     0x01u
#define DIF_DVF_WRITTEN  0x02u

/* Description of a built-in variable (dif_builtin()). */
typedef struct dif_builtin {
	const char *bi_name;
	uint16_t    bi_id;
	uint8_t     bi_kind;   /* enum dif_type_kind of the value */
	uint8_t     bi_array;  /* 1 for args, uregs */
} dif_builtin_t;

/*
 * dif_builtin_lookup / dif_builtin_byid: the built-in variable named `name`
 * (length n) or with id `id`; NULL if none. Context: any; pure.
 */
const dif_builtin_t *dif_builtin_lookup(const char *name, size_t n);
const dif_builtin_t *dif_builtin_byid(uint32_t id);

/* Subroutines: DIF_SUBR_STRLEN = 0, ... (dif_subr.def). */
enum dif_subr_id {
#define DIF_SUBR(NAME, name, id, mn, mx, ret, flags, proto) DIF_SUBR_##NAME = id,
#include "dif/dif_subr.def"
#undef DIF_SUBR
	DIF_SUBR_MAX
};
#define DIF_SF_DESTRUCTIVE 0x01u  /* allowed only with DIF_VF_DESTRUCTIVE */
#define DIF_SF_USER        0x02u  /* reads user memory */

typedef struct dif_subrinfo {
	const char *si_name;
	uint8_t     si_minargs, si_maxargs;
	uint8_t     si_rkind;  /* enum dif_type_kind */
	uint8_t     si_flags;  /* DIF_SF_* */
	const char *si_proto;
} dif_subrinfo_t;

/* dif_subrinfo: description of subroutine `id`, NULL if none. Pure. */
const dif_subrinfo_t *dif_subrinfo(unsigned id);

/* Tuple-stack entry types (PUSHTR's type field). */
#define DIF_TT_MEM  0u   /* r2 bytes of memory */
#define DIF_TT_STR  1u   /* a string, bounded by r2 (if nonzero) and strsize */

/*
 * The DIF object. All arrays belong to the caller (the compiler's arena, the
 * framework's copy of a consumer's program); dif/ never frees or resizes
 * them. The string table must end with a NUL if it is not empty.
 */
typedef struct dif_difo {
	const dif_instr_t *dd_insns;
	uint32_t           dd_ninsns;
	const uint64_t    *dd_inttab;
	uint32_t           dd_nints;
	const char        *dd_strtab;
	uint32_t           dd_strlen;   /* bytes in dd_strtab */
	const dif_var_t   *dd_vartab;
	uint32_t           dd_nvars;
	dif_type_t         dd_rtype;    /* type of the returned value */
} dif_difo_t;

/*
 * dif_op_scope: the scope (enum dif_var_scope) of the user variable that
 * variable opcode `op` names: thread for ldts stts ldtaa sttaa, local for
 * ldls stls, global otherwise. (Its kind is DIF_VKIND_ARRAY exactly when
 * the opcode has DIF_OF_TUPLE.) Context: any; pure.
 */
unsigned dif_op_scope(unsigned op);

/*
 * dif_var_lookup: the first entry of dp's variable table with id `id` and
 * scope `scope`, NULL if none. Context: any; pure.
 */
const dif_var_t *dif_var_lookup(const dif_difo_t *dp, uint32_t id,
                                unsigned scope);

/* Fault codes (DTrace's DTRACEFLT_* values), from dif_faults.def. */
enum dif_fault_code {
#define DIF_FAULT(NAME, code, msg) DIF_FAULT_##NAME = code,
#include "dif/dif_faults.def"
#undef DIF_FAULT
	DIF_FAULT_MAX
};

/* dif_fault_name: "BADADDR", ...; "NONE" for 0, NULL if unknown. Pure. */
const char *dif_fault_name(unsigned code);
/* dif_fault_message: "invalid address", ... as dtrace(1M) prints it; NULL if unknown. Pure. */
const char *dif_fault_message(unsigned code);

typedef struct dif_fault {
	uint32_t df_code;   /* enum dif_fault_code */
	uint32_t df_pc;     /* index of the faulting instruction */
	uint64_t df_addr;   /* faulting address (BADADDR, BADALIGN, ...) */
} dif_fault_t;

/*
 * A key or argument on the tuple stack. By value: dk_size == 0 and dk_value
 * is the integer. By reference: dk_value is an address that the environment
 * may dereference directly (the interpreter has copied the bytes into
 * scratch or checked they lie in the DIFO's string table), dk_size bytes
 * long (for strings, including the NUL).
 */
typedef struct dif_key {
	uint64_t dk_value;
	uint64_t dk_size;
} dif_key_t;

/*
 * A reference to a user variable, as the interpreter passes it to the
 * environment: which variable, and for arrays, the key tuple.
 */
typedef struct dif_varref {
	const dif_var_t *vr_var;    /* its entry in the DIFO's variable table */
	const dif_key_t *vr_keys;   /* the tuple (arrays), NULL for scalars */
	uint32_t         vr_nkeys;
} dif_varref_t;

/* Memory spaces for the load callback. */
#define DIF_SPACE_KERNEL 0u
#define DIF_SPACE_USER   1u

/*
 * The environment: what the embedder (the kernel's framework, a host test)
 * supplies. Every callback runs in probe context when called from the
 * kernel: it must not sleep, not take locks that code with interrupts
 * enabled takes, and not allocate except from preallocated space. Each
 * returns 0 or a DIF_FAULT_* code, which stops the program with that fault
 * (the interpreter records the pc and, for memory accesses, the address).
 * `ctx` is de_ctx, passed through untouched.
 */
/* A baggage value crossing de_bag. */
struct dif_bagval {
	unsigned dbv_kind;       /* DIF_BAG_INT, DIF_BAG_STR, DIF_BAG_SUM; 0: absent */
	uint64_t dbv_int;
	const char *dbv_str;
	size_t dbv_slen;
};
enum { DIF_BAG_PACK, DIF_BAG_GET };
enum { DIF_BAG_INT = 1, DIF_BAG_STR = 2, DIF_BAG_SUM = 3 };
enum { DIF_BAG_SEL_ALL, DIF_BAG_SEL_FIRST, DIF_BAG_SEL_LAST };

typedef struct dif_env {
	void *de_ctx;

	/*
	 * de_load: read `size` (1, 2, 4 or 8) bytes at `addr` in `space`
	 * (DIF_SPACE_*) into *val, zero-extended. The interpreter has already
	 * checked alignment. The kernel's version refuses non-canonical
	 * addresses, unmapped pages and device memory and survives a page fault
	 * through the exception table. Returns 0, DIF_FAULT_BADADDR,
	 * DIF_FAULT_KPRIV or DIF_FAULT_UPRIV. Required.
	 */
	int (*de_load)(void *ctx, uint64_t addr, unsigned size, unsigned space,
	               uint64_t *val);

	/*
	 * de_ustore: copy n bytes from src (readable host memory) to user
	 * address uaddr (copyout, copyoutstr). Destructive. Returns 0 or a fault.
	 * Optional: NULL makes these subroutines fault with UPRIV.
	 */
	int (*de_ustore)(void *ctx, uint64_t uaddr, const void *src, size_t n);

	/*
	 * de_builtin: the value of built-in variable `id` (DIF_VAR_*); `index`
	 * is the subscript for arrays (args, uregs), 0 for scalars. String
	 * built-ins return an address readable through de_load. arg0..arg9 and
	 * args[0..9] come from ds_args and never reach this callback. Returns 0
	 * or a fault (ILLOP for an unknown id). Required.
	 */
	int (*de_builtin)(void *ctx, uint32_t id, uint64_t index, uint64_t *val);

	/*
	 * de_var_load: the value of a user variable (scalar or array element,
	 * any scope). A variable never stored reads as 0. By-ref variables
	 * (strings, blobs) return the address of their storage, which must be
	 * readable through de_load and stay valid until the run ends; 0 if
	 * unset or stored as 0 (the NULL string), though a framework may read
	 * a global or clause-local string never stored as "" (Sonde's does,
	 * as DTrace). Returns 0 or a fault. Required if the DIFO has variables.
	 */
	int (*de_var_load)(void *ctx, const dif_varref_t *ref, uint64_t *val);

	/*
	 * de_var_store: store into a user variable. For integer variables
	 * `value` is the value and `data` is NULL. For by-ref variables `data`
	 * points to `size` bytes the callback may read directly (a string's
	 * size includes its NUL) and must copy; value is the original address.
	 * Storing 0 (value == 0, data == NULL) into an array element or a
	 * thread-local deletes it; into a by-ref global or clause-local it
	 * makes the variable read as 0 again.
	 * Running out of dynamic-variable space is a silent, counted drop in
	 * the framework, not a fault. Returns 0 or a fault.
	 */
	int (*de_var_store)(void *ctx, const dif_varref_t *ref, uint64_t value,
	                    const void *data, size_t size);

	/*
	 * de_speculation: allocate a speculative buffer; *id = its id, 0 if
	 * none is free. Optional: NULL makes speculation() return 0.
	 */
	int (*de_speculation)(void *ctx, uint64_t *id);

	/*
	 * de_lock: answer `query` (DIF_LOCK_*) about the lock at addr
	 * (mutex_owned() and friends): *val is 0 or 1, or for
	 * DIF_LOCK_OWNER the owning thread (0 if none). The embedder knows
	 * its locks' layout and reads them with guarded loads. Optional: NULL
	 * makes every query answer 0.
	 */
	int (*de_lock)(void *ctx, uint64_t addr, unsigned query, uint64_t *val);

	/*
	 * de_bag: the current thread's causal baggage (bag_pack, bag_get,
	 * bag_getstr; docs/causal.md).  op DIF_BAG_PACK packs (key, klen) with
	 * bv->dbv_kind and its value; DIF_BAG_GET fills *bv with the value sel
	 * asks for (DIF_BAG_SEL_*): dbv_kind 0 when absent.  Strings point at
	 * dbv_slen bytes, not terminated, valid until the clause ends.
	 * Returns 0 or a fault.  Optional: NULL packs nothing and reads 0.
	 */
	int (*de_bag)(void *ctx, unsigned op, const char *key, size_t klen, unsigned sel,
	              struct dif_bagval *bv);
} dif_env_t;

/* de_lock's queries. */
enum dif_lock_query {
	DIF_LOCK_OWNED,          /* held (adaptive: by the current thread) */
	DIF_LOCK_OWNER,          /* the owning thread, 0 for none or a spin lock */
	DIF_LOCK_ADAPTIVE,       /* an adaptive (sleeping) mutex */
	DIF_LOCK_SPIN,           /* a spin lock */
	DIF_LOCK_RW_READ,        /* held by a reader */
	DIF_LOCK_RW_WRITE,       /* held by a writer */
	DIF_LOCK_RW_ISWRITER,    /* held or wanted by a writer */
};

/*
 * A range of memory the embedder owns and vouches for (dif_state_own):
 * mapped, readable with plain loads, and unchanged in layout until the
 * embedder resets ds_nowned (the kernel: the thread's name, the probe's
 * strings, for one clause).  DIF reads it as it reads its own string table:
 * in place, no guarded load per byte.
 */
#define DIF_OWNED_MAX 4
typedef struct dif_range {
	uint64_t dr_base;
	uint64_t dr_len;
} dif_range_t;

/*
 * Per-run machine state: one per CPU in the kernel, one per thread on the
 * host. The caller sets the inputs, calls dif_emulate() as often as it
 * likes (several clauses of one probe firing share one state: clause-locals
 * and the scratch buffer are per firing), and reads the outputs.
 */
typedef struct dif_state {
	/* inputs */
	const dif_env_t *ds_env;
	uint64_t  ds_args[DIF_NARGS];  /* arg0 .. arg9 */
	uint8_t  *ds_scratch;          /* scratch buffer lent by the caller */
	size_t    ds_scratch_size;
	size_t    ds_scratch_used;     /* bump pointer; reset per firing */
	uint32_t  ds_strsize;          /* string bound incl. NUL; 0 = default */
	uint32_t  ds_flags;            /* DIF_RUN_* */
	uint64_t  ds_rand;             /* state of rand(); any seed */
	uint64_t  ds_strtok;           /* strtok()'s saved position, 0 = none */
	uint32_t  ds_nowned;           /* ranges in ds_owned; the embedder resets it */
	dif_range_t ds_owned[DIF_OWNED_MAX]; /* memory the embedder vouches for (dif_state_own) */
	/* outputs */
	dif_fault_t ds_fault;          /* code 0 unless the last run faulted */
	uint64_t    ds_insns;          /* instructions executed (accumulates) */
	/* private to dif_emulate */
	uint32_t    ds_ntuples;
	dif_key_t   ds_tuples[DIF_TUPLE_MAX];
} dif_state_t;

#define DIF_RUN_DESTRUCTIVE 0x01u  /* permit destructive subroutines at run time */

/*
 * dif_state_init: zero `st` (but for its private tuple stack, which every
 * run starts empty) and set its environment, scratch buffer and string size
 * (0 = DIF_STRSIZE_DEFAULT). Context: any.
 */
void dif_state_init(dif_state_t *st, const dif_env_t *env, void *scratch,
                    size_t scratch_size, uint32_t strsize);

/*
 * dif_state_own: the embedder vouches for [base, base + len) (dif_range_t)
 * until it sets st->ds_nowned = 0: a de_builtin returning a string in the
 * framework's own memory calls it, so that comparing, copying or hashing
 * that string reads it in place.  Never for memory a D program names
 * (arg0, copyin, a pointer): those keep de_load's check and its faults.
 * With the table full the oldest range goes (it is only a shortcut: a
 * range not found is read through de_load as before).  Context: any.
 */
void dif_state_own(dif_state_t *st, uint64_t base, uint64_t len);

/*
 * dif_owned_span: bytes from addr to the end of the owned range holding
 * it, 0 if none does.  Context: any; pure.
 */
uint64_t dif_owned_span(const dif_state_t *st, uint64_t addr);
/*
 * dif_value_at: the size-byte (1, 2, 4 or 8) integer at p, in the machine's
 * byte order, zero-extended.  p must be readable; the caller has checked it.
 */
uint64_t dif_value_at(const uint8_t *p, unsigned size);

/*
 * dif_inplace_span: bytes from addr that DIF would read in place for a run
 * of dp on st (allocated scratch, dp's string table, the owned ranges),
 * 0 if none: the embedder may copy a string DIF returned from there with
 * plain loads.  st NULL: dp's string table only (a state not set up for
 * this clause says nothing).  Context: any; pure.
 */
uint64_t dif_inplace_span(const dif_state_t *st, const dif_difo_t *dp, uint64_t addr);

/*
 * dif_emulate: run `dp`, which must have passed dif_validate(), on state
 * `st`. On success returns 0 and stores the value of the executed `ret`
 * in *rval (an integer, or an address for by-ref return types). On a fault
 * returns the fault code, fills st->ds_fault (code, pc, address) and leaves
 * *rval untouched. Never fails in any other way. The tuple stack is empty
 * on return; scratch allocations stay until the caller resets
 * ds_scratch_used. Context: probe context; no locks, never sleeps, bounded
 * time (at most dd_ninsns instructions plus bounded subroutine work).
 */
int dif_emulate(const dif_difo_t *dp, dif_state_t *st, uint64_t *rval);

/*
 * dif_validate: check `dp` before it is ever run. Every problem is reported
 * to `report(arg, pc, why)` (pc = instruction index, or DIF_PC_NONE for
 * problems with the tables; `why` a constant English sentence); `report`
 * may be NULL. `flags` is DIF_VF_*. Returns the number of problems: 0 means
 * the DIFO is safe to run (it terminates and names only valid registers,
 * table entries, variables and permitted subroutines). Context: any; no
 * allocation; time linear in the size of the DIFO.
 */
#define DIF_VF_DESTRUCTIVE 0x01u   /* allow destructive subroutines */
#define DIF_VF_USER        0x02u   /* allow user-memory loads and subroutines */
#define DIF_PC_NONE        0xffffffffu
typedef void dif_report_fn(void *arg, uint32_t pc, const char *why);
unsigned dif_validate(const dif_difo_t *dp, unsigned flags,
                      dif_report_fn *report, void *arg);

/*
 * Assembler and disassembler (dif_asm.c). The text form is in docs/dif.md.
 *
 * dif_asm: assemble `src` (len bytes) into `out`, using the caller's arrays
 * in `mem` for the tables (capacities in dif_asmbuf_t). Returns 0, or -1
 * with a message "line N: why" in err (errlen bytes). Context: host or
 * kernel, not probe context.
 */
typedef struct dif_asmbuf {
	dif_instr_t *ab_insns;  uint32_t ab_insns_cap;
	uint64_t    *ab_ints;   uint32_t ab_ints_cap;
	char        *ab_strs;   uint32_t ab_strs_cap;
	dif_var_t   *ab_vars;   uint32_t ab_vars_cap;
} dif_asmbuf_t;
int dif_asm(const char *src, size_t len, dif_asmbuf_t *mem, dif_difo_t *out,
            char *err, size_t errlen);

/*
 * dif_disasm: write the text form of `dp` to out (at most outlen bytes,
 * always NUL-terminated). Returns the length the full text needs
 * (excluding the NUL), like snprintf. dif_asm(dif_disasm(d)) == d for any
 * DIFO whose tables are well formed (the round trip is exact). Pure.
 */
size_t dif_disasm(const dif_difo_t *dp, char *out, size_t outlen);

/*
 * dif_disasm_insn: text of one instruction (no labels, no newline) as it
 * appears in dif_disasm's output. Returns the length needed. Pure.
 */
size_t dif_disasm_insn(const dif_difo_t *dp, uint32_t pc, char *out,
                       size_t outlen);

#endif /* SONDE_DIF_DIF_H */
