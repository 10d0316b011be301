/*
 * dif_subr_bag.c - the causal-baggage subroutines: bag_pack, bag_get and
 * bag_getstr, what the D compiler writes for the bag-> scope
 * (docs/causal.md).
 *
 * DIF knows nothing of threads or of the baggage's format: each call hands
 * the key (a string argument) and the value to the environment's de_bag,
 * which the framework implements on the current thread's baggage
 * (trace/bag.c).  Without de_bag (the host's model), packing does nothing
 * and every read is absent: 0, or "".  Reading an integer with bag_getstr
 * gives its decimal text (a program that reads a key it never packs does
 * not know the key's type, and strings are what aggregation keys print);
 * reading a string with bag_get gives 0.  Context: probe context.
 *
 * Tests: tests/d/causal; tests/e2e/test_link.py
 */
#include "dif/dif_impl.h"

static int bag_call(struct dif_run *r, unsigned op, const dif_key_t *key, unsigned sel,
                    struct dif_bagval *bv)
{
	const char *k;
	size_t klen;
	int f;

	if ((f = dif_arg_str(r, key, &k, &klen)) != 0)
		return f;
	if (r->env->de_bag == NULL) {
		bv->dbv_kind = op == DIF_BAG_GET ? 0 : bv->dbv_kind;
		return 0;
	}
	if ((f = r->env->de_bag(r->env->de_ctx, op, k, klen, sel, bv)) != 0)
		return dif_fault(r, (unsigned)f, 0);
	return 0;
}

/* bag_pack(key, value, kind): kind 0 an integer, 1 a string, 2 a sum. */
int dif_subr_bag_pack(struct dif_run *r, const dif_key_t *a, uint32_t n, uint64_t *ret)
{
	struct dif_bagval bv = { 0 };
	uint64_t kind = a[2].dk_value;
	int f;

	(void)n;
	*ret = 0;
	if (kind > 2)
		return dif_fault(r, DIF_FAULT_ILLOP, kind);
	bv.dbv_kind = kind == 1 ? DIF_BAG_STR : kind == 2 ? DIF_BAG_SUM : DIF_BAG_INT;
	if (kind == 1) {
		if ((f = dif_arg_str(r, &a[1], &bv.dbv_str, &bv.dbv_slen)) != 0)
			return f;
	} else {
		bv.dbv_int = a[1].dk_value;
	}
	return bag_call(r, DIF_BAG_PACK, &a[0], 0, &bv);
}

int dif_subr_bag_get(struct dif_run *r, const dif_key_t *a, uint32_t n, uint64_t *ret)
{
	struct dif_bagval bv = { 0 };
	int f;

	(void)n;
	*ret = 0;
	if ((f = bag_call(r, DIF_BAG_GET, &a[0], (unsigned)a[1].dk_value, &bv)) != 0)
		return f;
	if (bv.dbv_kind == DIF_BAG_INT || bv.dbv_kind == DIF_BAG_SUM)
		*ret = bv.dbv_int;
	return 0;
}

/* bag_decimal: v's decimal text (signed) into buf, which holds 21; returns its length. */
static size_t bag_decimal(int64_t v, char *buf)
{
	char tmp[21];
	size_t n = 0, len = 0;
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		buf[len++] = '-';
	while (n > 0)
		buf[len++] = tmp[--n];
	return len;
}

int dif_subr_bag_getstr(struct dif_run *r, const dif_key_t *a, uint32_t n, uint64_t *ret)
{
	struct dif_bagval bv = { 0 };
	char num[21];
	int f;

	(void)n;
	if ((f = bag_call(r, DIF_BAG_GET, &a[0], (unsigned)a[1].dk_value, &bv)) != 0)
		return f;
	if (bv.dbv_kind == DIF_BAG_STR)
		return dif_ret_copy(r, bv.dbv_str, bv.dbv_slen, ret);
	if (bv.dbv_kind == DIF_BAG_INT || bv.dbv_kind == DIF_BAG_SUM)
		return dif_ret_copy(r, num, bag_decimal((int64_t)bv.dbv_int, num), ret);
	return dif_ret_copy(r, "", 0, ret);
}
