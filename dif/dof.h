/*
 * dif/dof.h: the DTrace Object Format (DOF) as Sonde writes and reads it.
 *
 * DOF is the byte string a consumer hands the kernel to enable a program:
 * a header, a table of section headers, and sections (string tables, DIF
 * objects and their tables, probe descriptions, actions, ECB descriptions,
 * options).  The layout of the header, the section header and DTrace's
 * sections follows DTrace's documented one (the Dynamic Tracing Guide's
 * DOF description and sys/dtrace.h's dof_* types): same field order, sizes
 * and numbers.  What Sonde's program object holds that DTrace's DOF has no
 * documented section for (aggregation and format descriptions, per-action
 * record sizes, action kinds only Sonde has, global variable descriptions)
 * lives in Sonde sections numbered from DOF_SECT_SONDE_BASE, far above
 * DTrace's.  docs/dof.md lists every section and field.
 *
 * The structures are not declared as C structs that a reader overlays on the
 * bytes: the writer (dlang/dt_dof.c) stores and the reader (trace/dof.c)
 * loads each field at its documented offset in the byte order the header
 * records, so neither depends on the compiler's padding or on the buffer's
 * alignment.  The constants here are those offsets and sizes.
 *
 * Context: header only; freestanding.
 *
 * Tests: tests/unit/trace_dof_test.c, tests/fuzz/dof_fuzz.c.
 */
#ifndef SONDE_DIF_DOF_H
#define SONDE_DIF_DOF_H

/* ---- the header (dof_hdr_t): 64 bytes ---- */
#define DOF_HDR_SIZE      64
#define DOF_ID_SIZE       16   /* dofh_ident[] */
#define DOF_ID_MAG0       0    /* 0x7f */
#define DOF_ID_MAG1       1    /* 'D' */
#define DOF_ID_MAG2       2    /* 'O' */
#define DOF_ID_MAG3       3    /* 'F' */
#define DOF_ID_MODEL      4    /* data model: DOF_MODEL_* */
#define DOF_ID_ENCODING   5    /* byte order: DOF_ENCODE_* */
#define DOF_ID_VERSION    6    /* DOF_VERSION */
#define DOF_ID_DIFVERS    7    /* DIF version: DOF_DIF_VERSION */
#define DOF_ID_DIFIREG    8    /* DIF integer registers */
#define DOF_ID_DIFTREG    9    /* DIF tuple registers */
/* then dofh_flags, hdrsize, secsize, secnum (uint32 each), secoff, loadsz, filesz, pad (uint64) */
#define DOF_HDR_FLAGS     16
#define DOF_HDR_HDRSIZE   20
#define DOF_HDR_SECSIZE   24
#define DOF_HDR_SECNUM    28
#define DOF_HDR_SECOFF    32
#define DOF_HDR_LOADSZ    40
#define DOF_HDR_FILESZ    48

#define DOF_MAG0          0x7f
#define DOF_MODEL_ILP32   1
#define DOF_MODEL_LP64    2
#define DOF_ENCODE_LSB    1
#define DOF_ENCODE_MSB    2
#define DOF_VERSION       2
#define DOF_DIF_VERSION   2
#define DOF_DIF_IREGS     8
#define DOF_DIF_TREGS     8

/* ---- a section header (dof_sec_t): 32 bytes ---- */
#define DOF_SEC_SIZE      32
#define DOF_SEC_TYPE      0    /* uint32 DOF_SECT_* */
#define DOF_SEC_ALIGN     4    /* uint32: the data's alignment, a power of two */
#define DOF_SEC_FLAGS     8    /* uint32 DOF_SECF_* */
#define DOF_SEC_ENTSIZE   12   /* uint32: an entry's size, 0 if not a table */
#define DOF_SEC_OFFSET    16   /* uint64: from the start of the file */
#define DOF_SEC_DSIZE     24   /* uint64: bytes */
#define DOF_SECF_LOAD     1    /* the kernel loads it */

#define DOF_SECIDX_NONE   0xffffffffu   /* no section (dof_secidx_t) */

/* DTrace's section types (the ones Sonde uses). */
#define DOF_SECT_NONE      0
#define DOF_SECT_ECBDESC   3    /* one dof_ecbdesc_t */
#define DOF_SECT_PROBEDESC 4    /* dof_probedesc_t[] (DTrace: one; Sonde: a clause's) */
#define DOF_SECT_ACTDESC   5    /* dof_actdesc_t[] */
#define DOF_SECT_DIFOHDR   6    /* dof_difohdr_t: return type, then links */
#define DOF_SECT_DIF       7    /* dif_instr_t[] */
#define DOF_SECT_STRTAB    8    /* NUL-terminated strings */
#define DOF_SECT_VARTAB    9    /* dtrace_difv_t[] */
#define DOF_SECT_OPTDESC   14   /* dof_optdesc_t[] */
#define DOF_SECT_INTTAB    19   /* uint64_t[] */

/* Sonde's sections, above any number DTrace uses. */
#define DOF_SECT_SONDE_BASE    0x5300
#define DOF_SECT_SONDE_PROG    0x5300   /* the program: global sections, strsize */
#define DOF_SECT_SONDE_ACTEXT  0x5301   /* a clause's actions' Sonde half */
#define DOF_SECT_SONDE_AGGDESC 0x5302   /* aggregation descriptions */
#define DOF_SECT_SONDE_FMTDESC 0x5303   /* printf/printa format descriptions */
#define DOF_SECT_SONDE_CONV    0x5304   /* the formats' conversions */
#define DOF_SECT_SONDE_VARDESC 0x5305   /* global and thread-local variables */

/* dof_ecbdesc_t: 24 bytes */
#define DOF_ECB_SIZE      24
#define DOF_ECB_PROBES    0    /* secidx: PROBEDESC */
#define DOF_ECB_PRED      4    /* secidx: DIFOHDR or NONE */
#define DOF_ECB_ACTIONS   8    /* secidx: ACTDESC or NONE */
#define DOF_ECB_PAD       12   /* uint32 0 */
#define DOF_ECB_UARG      16   /* uint64: Sonde: ACTEXT secidx << 32 | source line */

/* dof_probedesc_t: 24 bytes */
#define DOF_PD_SIZE       24
#define DOF_PD_STRTAB     0    /* secidx: STRTAB */
#define DOF_PD_PROVIDER   4    /* stridx */
#define DOF_PD_MOD        8
#define DOF_PD_FUNC       12
#define DOF_PD_NAME       16
#define DOF_PD_ID         20   /* Sonde: the source line */

/* dof_actdesc_t: 32 bytes */
#define DOF_ACT_SIZE      32
#define DOF_ACT_DIFO      0    /* secidx: DIFOHDR of the first argument, or NONE */
#define DOF_ACT_STRTAB    4    /* secidx: NONE (Sonde) */
#define DOF_ACT_KIND      8    /* uint32: DTRACEACT_* (see below) */
#define DOF_ACT_NTUPLE    12   /* uint32: Sonde: the number of arguments */
#define DOF_ACT_ARG       16   /* uint64: the constant argument */
#define DOF_ACT_UARG      24   /* uint64: Sonde: the source line */

/* dof_difohdr_t: 8 bytes of return type (dtrace_diftype_t), then uint32 links */
#define DOF_DIFOHDR_RTYPE 0    /* kind(8) ckind(8) flags(8) pad(8) size(32) */
#define DOF_DIFOHDR_LINKS 8
#define DOF_DIFTYPE_SIZE  8

/* dtrace_difv_t: 20 bytes */
#define DOF_DIFV_SIZE     20   /* name(32) id(32) kind(8) scope(8) flags(16) type(64) */

/* dof_optdesc_t: 16 bytes: option(32) strtab(32) value(64) */
#define DOF_OPT_SIZE      16

/*
 * DTrace's action kinds (dofa_kind), for the actions DTrace has; Sonde's
 * own carry DTRACEACT_SONDE + their dt_actkind.
 */
#define DTRACEACT_NONE        0
#define DTRACEACT_DIFEXPR     1
#define DTRACEACT_EXIT        2
#define DTRACEACT_PRINTF      3
#define DTRACEACT_PRINTA      4
#define DTRACEACT_LIBACT      5
#define DTRACEACT_TRACEMEM    6
#define DTRACEACT_USTACK      0x0101
#define DTRACEACT_USYM        0x0103
#define DTRACEACT_UMOD        0x0104
#define DTRACEACT_UADDR       0x0105
#define DTRACEACT_STOP        0x0201
#define DTRACEACT_RAISE       0x0202
#define DTRACEACT_SYSTEM      0x0203
#define DTRACEACT_FREOPEN     0x0204
#define DTRACEACT_STACK       0x0401
#define DTRACEACT_SYM         0x0402
#define DTRACEACT_MOD         0x0403
#define DTRACEACT_BREAKPOINT  0x0501
#define DTRACEACT_PANIC       0x0502
#define DTRACEACT_CHILL       0x0503
#define DTRACEACT_SPECULATE   0x0601
#define DTRACEACT_COMMIT      0x0602
#define DTRACEACT_DISCARD     0x0603
#define DTRACEACT_AGGREGATION 0x0700   /* + DTRACEAGG_*: count 1 .. llquantize 9 */
#define DTRACEACT_SONDE       0x5300   /* + dt_actkind: clear, trunc, setopt, ... */

/*
 * Sonde's sections.  All words are uint32 unless said, in the file's byte
 * order; "stridx" is an offset into the program's STRTAB.
 *
 * SONDE_PROG (one, 40 bytes): strtab, aggdesc, fmtdesc, conv, optdesc,
 *   vardesc (secidx or NONE each), strsize, flags (bit 0: destructive, as
 *   the compiler saw it; the kernel judges each action itself), nclauses
 *   (the ECBDESC sections, in section order), pad.
 */
#define DOF_PROG_SIZE     40
/*
 * SONDE_ACTEXT (per clause; entsize 0, uint32 words): first DOF_AX_WORDS per
 *   action, in ACTDESC order: kind (dt_actkind), line, fmt (int32, -1:
 *   none), size (bytes recorded), nargs, args (word index in this section
 *   of nargs secidx: each argument's DIFOHDR, NONE for a stack key), naggs,
 *   aggs (word index of naggs aggregation ids); then the lists.
 */
#define DOF_AX_WORDS      8
/*
 * SONDE_AGGDESC (entsize 120): name (stridx), id, func (dt_aggfunc), nkeys,
 *   nparams, pad, params[4] (int64, from byte 24), keys[8] of {string(8)
 *   size(8) signed(8) kind(8) frames(32)} (from byte 56).
 */
#define DOF_AGG_SIZE      120
/* SONDE_FMTDESC (entsize 16): text (stridx), nconvs, first conv (index in CONV), printa. */
#define DOF_FMT_SIZE      16
/*
 * SONDE_CONV (entsize 64): kind, flags(16) star_width(8) star_prec(8),
 *   textlen, width (int32), prec (int32), ofmt(8) pad(24), spec[24], name[8],
 *   pad to 64.
 */
#define DOF_CONV_SIZE     64
/* SONDE_VARDESC (entsize 24): name (stridx), id, scope(8) kind(8) string(8) pad(8), size, nkeys, nstrkeys. */
#define DOF_VAR_SIZE      24

#endif
