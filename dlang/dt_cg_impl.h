/*
 * dlang/dt_cg_impl.h: what the code generator's three files share.
 *
 * DIF code generation (dt_cg_expr, dlang/dt.h) is one recursive walk
 * over a cooked expression, split by what a node does:
 *   dlang/dt_cg.c      the buffer and its tables, registers and labels,
 *                      loads, register pressure, the dispatcher
 *                      (dt_cg_node) and the finished DIFO;
 *   dlang/dt_cg_var.c  variables, tuples, bit-fields, addresses and
 *                      stores (assignment, ++ and --);
 *   dlang/dt_cg_op.c   operators, conditions as jumps, spilling, calls
 *                      and indexing.
 * Each function here is called from another of the three; everything else
 * stays static in its file.  The conventions every file keeps (a node's
 * value in a register it allocated, operands freed once consumed, labels
 * patched at the end) are dt_cg.c's theory comment.
 *
 * Context: as the compiler's (dlang/dt.h): freestanding, reentrant.
 */
#ifndef DLANG_DT_CG_IMPL_H
#define DLANG_DT_CG_IMPL_H

#include "dlang/dt.h"

/* One DIFO being generated: its instructions and tables, grown in the arena. */
typedef struct dt_cgbuf {
	dif_instr_t *cb_insns;
	uint32_t cb_n, cb_cap;
	uint64_t *cb_ints;
	uint32_t cb_nints, cb_capi;
	char *cb_strs;
	uint32_t cb_strlen, cb_caps;
	dif_var_t *cb_vars;
	uint32_t cb_nvars, cb_capv;
	uint32_t *cb_labels;
	uint32_t cb_nlabels, cb_capl;
	uint8_t cb_regs;		/* bit i: %ri in use */
	uint32_t cb_spills;		/* spill slots in use (register pressure) */
} dt_cgbuf;

/* What a subtree needs of the registers (register pressure, dt_cg.c). */
typedef struct dt_need {
	int nd_regs;		/* registers the subtree needs */
	bool nd_impure;		/* it assigns, ++ or -- somewhere */
	bool nd_tuple;		/* it pushes a tuple (array element, call) */
} dt_need;

/* dt_cg.c */
void dt_cg_emit(dt_ctx *ctx, dt_cgbuf *b, dif_instr_t in);
uint32_t dt_cg_str_offset(dt_ctx *ctx, dt_cgbuf *b, dt_node *where,
    const char *s, uint32_t len);
int dt_cg_reg_alloc(dt_ctx *ctx, dt_cgbuf *b, dt_node *where);
void dt_cg_reg_free(dt_cgbuf *b, int r);
uint32_t dt_cg_label_new(dt_ctx *ctx, dt_cgbuf *b);
void dt_cg_label_here(dt_cgbuf *b, uint32_t l);
void dt_cg_branch(dt_ctx *ctx, dt_cgbuf *b, unsigned op, uint32_t l);
void dt_cg_set_int(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, uint64_t v,
    int rd);
bool dt_cg_by_ref(const dt_type *t);
void dt_cg_load(dt_ctx *ctx, dt_cgbuf *b, const dt_type *t, int rd, bool user);
void dt_cg_extend(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, const dt_type *t,
    int rd);
dt_need dt_cg_need(const dt_node *n);
int dt_cg_regs_free(const dt_cgbuf *b);
int dt_cg_node(dt_ctx *ctx, dt_cgbuf *b, dt_node *n);

/* dt_cg_var.c */
dif_type_t dt_cg_dif_type_of(dt_ctx *ctx, const dt_type *t);
void dt_cg_var_ref(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, dt_ident *id,
    bool store);
void dt_cg_push_tuple(dt_ctx *ctx, dt_cgbuf *b, dt_node *first);
void dt_cg_var_load(dt_ctx *ctx, dt_cgbuf *b, dt_node *n, int rd);
void dt_cg_bitfield_extend(dt_ctx *ctx, dt_cgbuf *b, dt_node *where,
    const dt_type *t, int rd);
void dt_cg_scale(dt_ctx *ctx, dt_cgbuf *b, dt_node *where, int r,
    uint32_t size);
int dt_cg_addr(dt_ctx *ctx, dt_cgbuf *b, dt_node *n);
int dt_cg_assign(dt_ctx *ctx, dt_cgbuf *b, dt_node *n);
int dt_cg_incdec(dt_ctx *ctx, dt_cgbuf *b, dt_node *n);
int dt_cg_xlate(dt_ctx *ctx, dt_cgbuf *b, dt_node *n);

/* dt_cg_op.c */
bool dt_cg_is_cond(const dt_node *n);
void dt_cg_cond(dt_ctx *ctx, dt_cgbuf *b, dt_node *n, bool when, uint32_t l);
void dt_cg_arith(dt_ctx *ctx, dt_cgbuf *b, dt_node *n, dt_tokkind op, int ra,
    int rb);
int dt_cg_op1(dt_ctx *ctx, dt_cgbuf *b, dt_node *n);
int dt_cg_op2(dt_ctx *ctx, dt_cgbuf *b, dt_node *n);
int dt_cg_op3(dt_ctx *ctx, dt_cgbuf *b, dt_node *n);
int dt_cg_call(dt_ctx *ctx, dt_cgbuf *b, dt_node *n);
int dt_cg_index(dt_ctx *ctx, dt_cgbuf *b, dt_node *n);

#endif
