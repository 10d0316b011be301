/*
 * dlang/dt_bitfield.c: bit-field members of the structs and unions a D
 * program declares.
 *
 * `int a : 3;` declares a member of 3 bits.  DTrace's checks, in its order
 * and words: an unnamed zero-width bit-field (`int : 0;`) is nothing; else
 * the width must be a positive constant (D_DECL_BFCONST, so a named `: 0`
 * too), the type an integer (D_DECL_BFTYPE: an enum is not one), and the
 * width no wider than the type (D_DECL_BFSIZE); the messages name the
 * member ("(anon)" for an unnamed one).  An unnamed bit-field (`int : 4;`)
 * only takes space.
 *
 * The layout is DTrace's for D-declared types (it lays them out as CTF
 * does, not as a C compiler packs them): a bit-field of w bits gets an
 * integer type of the smallest power-of-two number of bytes that holds w
 * bits (1, 2, 4 or 8), with the signedness of the declared type, and is
 * placed like any member of that type: at the next offset aligned to that
 * size.  Bit-fields therefore never share a byte, sizeof counts each one
 * in whole bytes, and the value sits in the low w bits of its bytes.
 *
 * What this file makes is that type, marked with ty_bits = w.  The code
 * generator (dt_cg.c) reads such a member as an integer of its bytes and
 * then keeps the low w bits, sign-extending a signed one; a store keeps the
 * low w bits of the value.  trace() and printf() see an integer of the
 * member's size, as DTrace's do.
 *
 * Context: compile time; arena allocation only; errors unwind.
 *
 * Tests: tests/d/types (bit-fields); tests/d/err.D_DECL_BF*.d
 */
#include "dlang/dt.h"

static uint32_t bitfield_bytes(int64_t w)
{
	uint32_t n = 1;

	while (n * 8 < (uint64_t)w)
		n *= 2;
	return n;
}

static dt_type *bitfield_type(dt_ctx *ctx, dt_type *base, int64_t w)
{
	dt_type *t = dt_alloc(ctx, sizeof(*t));

	*t = *dt_type_int(ctx, bitfield_bytes(w), base->ty_signed);
	t->ty_name = base->ty_name;
	t->ty_bits = (uint8_t)w;
	t->ty_align = t->ty_size;
	return t;
}

void dt_bitfield_member(dt_ctx *ctx, dt_node *where, dt_type *sou,
                        const char *name, dt_type *base, dt_node *width)
{
	const char *idname = name != NULL ? name : "(anon)";
	int64_t w;

	width = dt_sema_expr(ctx, width);
	bool isconst = (width->n_flags & DT_NF_CONST) &&
	    dt_type_isint(width->n_type);
	if (name == NULL && isconst && width->n_ival == 0)
		return;		/* an unnamed zero-width bit-field: nothing */
	if (!isconst || width->n_ival == 0 ||
	    (width->n_type->ty_signed && width->n_ival < 0))
		dt_error_node(ctx, width, "D_DECL_BFCONST", "positive integral "
		    "constant expression expected as bit-field size");
	w = width->n_ival;
	if (base->ty_kind != DT_TK_INT || base->ty_bits != 0)
		dt_error_node(ctx, where, "D_DECL_BFTYPE", "invalid type for "
		    "bit-field: %s", idname);
	if ((uint64_t)w > (uint64_t)base->ty_size * 8)
		dt_error_node(ctx, where, "D_DECL_BFSIZE", "bit-field too big "
		    "for type: %s", idname);
	if (name == NULL) {
		/* unnamed: a member no D expression can name */
		uint32_t i = 0;
		for (dt_member *m = sou->ty_members; m != NULL; m = m->m_next)
			i++;
		char *hidden = dt_alloc(ctx, 24);
		dt_snprintf(hidden, 24, "<bit-field %u>", i);
		name = hidden;
	}
	dt_sou_member(ctx, where, sou, name, bitfield_type(ctx, base, w));
}
