/*
 * dlang/dt_float.c: D's floating-point types.
 *
 * D has float, double and long double "for compatibility with ANSI-C
 * declarations and types" (the Dynamic Tracing Guide): objects of these
 * types may be declared, stored, loaded, passed around and formatted with
 * printf's %e %f %g, but D has no floating-point arithmetic and probe
 * context never computes in floating point.  A value of such a type is its
 * bytes (IEEE single, IEEE double, and for long double 16 bytes in the
 * machine's format: x86's 80-bit extended, SPARC's IEEE quad): DIF
 * moves them as an integer of that size (float, double) or by reference
 * (long double), and the consumer formats them (console/dtrace/
 * dtc_float.c).
 *
 * What is allowed:
 *   - declarations: float, double, long double (any other combination with
 *     float or double is D_DECL_COMBO);
 *   - sizeof: 4, 8, 16;
 *   - assignment between objects of the same floating type;
 *   - casts between float or double and an integer or the other of the two:
 *     the bytes are kept (an integer's low bytes, or widened as C widens
 *     an integer of that size), never converted, as DTrace's code
 *     generator treats any cast of a scalar;
 *   - printf %e %E %f %g %G of any of the three.
 * Any operator on a floating value is rejected by the operator's own check
 * (they require integers or scalars).
 *
 * Context: compile time; arena allocation only; errors unwind.
 *
 * Tests: tests/d/types (float and double); tests/d/sparc64/types/tst.long_double.d;
 *        tests/unit/dtc_float_test.c
 */
#include "dlang/dt.h"

static dt_type *float_type(dt_ctx *ctx, int which)
{
	static const char *const names[] = { "float", "double",
	    "long double" };
	static const uint32_t sizes[] = { 4, 8, 16 };

	if (ctx->c_t_float[which] == NULL) {
		dt_type *t = dt_alloc(ctx, sizeof(*t));
		t->ty_kind = DT_TK_FLOAT;
		t->ty_size = sizes[which];
		t->ty_align = sizes[which];
		t->ty_name = names[which];
		t->ty_complete = true;
		ctx->c_t_float[which] = t;
	}
	return ctx->c_t_float[which];
}

dt_type *dt_float_resolve(dt_ctx *ctx, int nfloat, int ndouble, int nlong, int nother,
                          uint32_t line, uint32_t col)
{
	if (nother == 0 && nlong == 0 && nfloat == 1 && ndouble == 0)
		return float_type(ctx, 0);
	if (nother == 0 && nlong == 0 && nfloat == 0 && ndouble == 1)
		return float_type(ctx, 1);
	if (nother == 0 && nlong == 1 && nfloat == 0 && ndouble == 1)
		return float_type(ctx, 2);
	dt_error_at(ctx, line, col, "D_DECL_COMBO", "invalid type combination");
}

bool dt_float_cast_ok(const dt_type *to, const dt_type *from)
{
	bool tf = to->ty_kind == DT_TK_FLOAT, ff = from->ty_kind == DT_TK_FLOAT;

	if (!tf && !ff)
		return false;
	if (tf && ff)
		return (to->ty_size == from->ty_size || (to->ty_size <= 8 &&
		    from->ty_size <= 8));
	const dt_type *f = tf ? to : from, *o = tf ? from : to;
	return f->ty_size <= 8 && dt_type_isint(o);
}
