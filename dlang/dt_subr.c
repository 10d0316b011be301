/*
 * dlang/dt_subr.c: the types and constants DTrace's kernel-object and
 * network subroutines are declared with.
 *
 * mutex_owned() and friends take a kmutex_t * or krwlock_t *, inet_ntoa()
 * an ipaddr_t *, inet_ntoa6() an in6_addr_t *, getmajor()/getminor() a
 * dev_t, and inet_ntop()/link_ntop() name their address family or hardware
 * type with AF_INET, AF_INET6, ARPHRD_ETHER and ARPHRD_IB.  Without CTF for
 * the kernel these are declared here, once per compilation, with the
 * illumos values and layouts:
 *
 *   kmutex_t, krwlock_t    opaque (struct kmutex, struct krwlock): only
 *                          pointers to them are used
 *   ipaddr_t               uint32_t, in network byte order in memory
 *   in6_addr_t             struct in6_addr { union { uint8_t _S6_u8[16];
 *                          uint32_t _S6_u32[4]; } _S6_un; }
 *   dev_t                  uint64_t: major in the high 32 bits
 *   major_t, minor_t       uint32_t
 *   AF_INET 2, AF_INET6 26, ARPHRD_ETHER 1, ARPHRD_IB and ARPHRD_INFINIBAND 32
 *                                                        (inline int)
 *
 * A name something else already declared (a D library file) is left alone.
 * Context: compile time, from dt_sema_init(); arena allocation only.
 *
 * Tests: tests/dlang/strings_subr.S, substr.S; tests/d/strings, tests/d/subr
 */
#include "dlang/dt.h"

/* A copy of integer type base under a typedef name. */
static void lib_int_typedef(dt_ctx *ctx, dt_node *where, const char *name,
                            const dt_type *base)
{
	dt_type *t;

	if (dt_ident_lookup(&ctx->c_types, name) != NULL)
		return;
	t = dt_alloc(ctx, sizeof(*t));
	*t = *base;
	t->ty_name = name;
	dt_decl_typedef(ctx, where, name, t);
}

static void lib_opaque_typedef(dt_ctx *ctx, dt_node *where, const char *name,
                               const char *tag)
{
	if (dt_ident_lookup(&ctx->c_types, name) != NULL)
		return;
	dt_decl_typedef(ctx, where, name, dt_type_tagged(ctx, where,
	    DT_T_STRUCT, tag, false));
}

static void lib_in6_addr(dt_ctx *ctx, dt_node *where)
{
	dt_type *u, *s;

	if (dt_ident_lookup(&ctx->c_types, "in6_addr_t") != NULL)
		return;
	u = dt_type_tagged(ctx, where, DT_T_UNION, NULL, true);
	dt_sou_member(ctx, where, u, "_S6_u8", dt_type_array(ctx,
	    ctx->c_t_uchar, 16));
	dt_sou_member(ctx, where, u, "_S6_u32", dt_type_array(ctx,
	    ctx->c_t_uint, 4));
	dt_sou_end(ctx, u);
	s = dt_type_tagged(ctx, where, DT_T_STRUCT, "in6_addr", true);
	dt_sou_member(ctx, where, s, "_S6_un", u);
	dt_sou_end(ctx, s);
	dt_decl_typedef(ctx, where, "in6_addr_t", s);
}

static void lib_inline_int(dt_ctx *ctx, dt_node *where, const char *name, int64_t v)
{
	if (dt_ident_lookup(&ctx->c_globals, name) != NULL)
		return;
	dt_decl_inline(ctx, where, ctx->c_t_int, name,
	    dt_node_int(ctx, where, v, ctx->c_t_int), NULL);
}

void dt_subr_lib_init(dt_ctx *ctx)
{
	dt_node *where = dt_alloc(ctx, sizeof(*where));

	where->n_kind = DT_N_DECL;
	where->n_reg = -1;
	lib_opaque_typedef(ctx, where, "kmutex_t", "kmutex");
	lib_opaque_typedef(ctx, where, "krwlock_t", "krwlock");
	lib_int_typedef(ctx, where, "ipaddr_t", ctx->c_t_uint);
	lib_int_typedef(ctx, where, "dev_t", ctx->c_t_ulong);
	lib_int_typedef(ctx, where, "major_t", ctx->c_t_uint);
	lib_int_typedef(ctx, where, "minor_t", ctx->c_t_uint);
	lib_in6_addr(ctx, where);
	lib_inline_int(ctx, where, "AF_INET", 2);
	lib_inline_int(ctx, where, "AF_INET6", 26);
	lib_inline_int(ctx, where, "ARPHRD_ETHER", 1);
	lib_inline_int(ctx, where, "ARPHRD_IB", 32);
	lib_inline_int(ctx, where, "ARPHRD_INFINIBAND", 32);   /* the Guide's name for link_ntop */
}
