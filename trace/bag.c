/*
 * trace/bag.c - the framework's half of causal baggage: D's bag-> scope on
 * the current thread's baggage (kernel/baggage.h, docs/causal.md).
 *
 * dtrace_bag (dif_env_t's de_bag) packs and unpacks for the baggage
 * subroutines (dif/dif_subr_bag.c).  A read with "all values" (plain
 * bag->k) makes the clause run once per value: the first run records each
 * key it reads and how many values it holds, the clause is then run again
 * for every combination (the cross product, Pivot Tracing's join of a
 * tuple with every packed value), at most DTRACE_BAG_RUNS times.  A key
 * that is absent counts as one value, 0 or "".  first() and last() never
 * multiply runs.  The runs of one clause share nothing but this cursor.
 *
 * The kernel's hand-off sites (kernel/baggage_site.h) are on while at least
 * one state whose program calls a baggage subroutine is enabled
 * (dtrace_bag_state_enable / _close, counted in bag_states).
 *
 * Context: dtrace_bag and the cursor in probe context (interrupts off, the
 * cursor per CPU); the rest in thread context under dtrace_lock.
 *
 * Tests: tests/d/causal
 */
#include "kernel/baggage.h"
#include "kernel/baggage_site.h"
#include "kernel/thread.h"
#include "trace/trace_impl.h"

#define BAG_ITER_KEYS 4

struct bag_cursor {
	uint32_t bc_run;                  /* which combination this run is */
	uint32_t bc_nkeys;
	struct {
		const char *bk_key;       /* in the DIFO's string table: stable */
		size_t bk_klen;
		uint32_t bk_count;        /* its values (1 when absent) */
	} bc_keys[BAG_ITER_KEYS];
};

static struct bag_cursor bag_cursor[MAX_CPUS];
static uint32_t bag_states;                  /* enabled states using baggage */

/* bag_digit: which of the key's values this run takes (mixed radix over the keys). */
static int bag_digit(struct bag_cursor *c, const char *key, size_t klen, int count)
{
	uint32_t radix = 1, i;

	for (i = 0; i < c->bc_nkeys; i++) {
		if (c->bc_keys[i].bk_klen == klen && memcmp(c->bc_keys[i].bk_key, key, klen) == 0)
			break;
		radix *= c->bc_keys[i].bk_count;
	}
	if (i == c->bc_nkeys) {
		if (c->bc_run != 0 || i == BAG_ITER_KEYS)
			return count - 1;         /* a key first read late: its last value */
		c->bc_keys[i].bk_key = key;
		c->bc_keys[i].bk_klen = klen;
		c->bc_keys[i].bk_count = count > 0 ? (uint32_t)count : 1;
		c->bc_nkeys++;
	}
	return (int)((c->bc_run / radix) % c->bc_keys[i].bk_count);
}

static void bag_value_out(const struct bag_value *v, struct dif_bagval *bv)
{
	bv->dbv_kind = v->bv_type == BAG_T_STR ? DIF_BAG_STR :
	               v->bv_type == BAG_T_SUM ? DIF_BAG_SUM : DIF_BAG_INT;
	bv->dbv_int = v->bv_int;
	bv->dbv_str = (const char *)v->bv_str;
	bv->dbv_slen = v->bv_len;
}

static int bag_get(struct thread *t, const char *key, size_t klen, unsigned sel,
                   struct dif_bagval *bv)
{
	struct bag_value v;
	int n = bag_lookup(&t->t_bag, key, klen, sel == DIF_BAG_SEL_LAST ? -1 : 0, &v), want;

	bv->dbv_kind = 0;
	want = sel == DIF_BAG_SEL_ALL ? bag_digit(&bag_cursor[arch_cpu_id()], key, klen, n) : 0;
	if (n == 0 || want < 0)
		return 0;
	if (want > 0 && bag_lookup(&t->t_bag, key, klen, want, &v) <= want)
		return 0;                         /* one pass, but for a later value of all */
	bag_value_out(&v, bv);
	return 0;
}

static int bag_pack(struct thread *t, const char *key, size_t klen, const struct dif_bagval *bv)
{
	int rc;

	if (bag_cursor[arch_cpu_id()].bc_run != 0)
		return 0;                         /* a clause's later runs pack nothing again */
	switch (bv->dbv_kind) {
	case DIF_BAG_STR: rc = bag_pack_str(&t->t_bag, key, klen, bv->dbv_str, bv->dbv_slen); break;
	case DIF_BAG_SUM: rc = bag_add_sum(&t->t_bag, key, klen, bv->dbv_int); break;
	default: rc = bag_pack_int(&t->t_bag, key, klen, bv->dbv_int); break;
	}
	if (rc == BAG_E_FULL)
		baggage_drop_count();
	return rc == BAG_E_INVAL ? DIF_FAULT_ILLOP : 0;
}

int dtrace_bag(void *ctx, unsigned op, const char *key, size_t klen, unsigned sel,
               struct dif_bagval *bv)
{
	struct thread *t = curthread();

	(void)ctx;
	if (t == NULL) {
		bv->dbv_kind = 0;
		return 0;
	}
	return op == DIF_BAG_PACK ? bag_pack(t, key, klen, bv) : bag_get(t, key, klen, sel, bv);
}

void dtrace_bag_runs_begin(int cpu)
{
	bag_cursor[cpu].bc_run = 0;
	bag_cursor[cpu].bc_nkeys = 0;
}

bool dtrace_bag_runs_next(int cpu)
{
	struct bag_cursor *c = &bag_cursor[cpu];
	uint32_t total = 1;

	for (uint32_t i = 0; i < c->bc_nkeys; i++)
		total *= c->bc_keys[i].bk_count;
	if (++c->bc_run >= total || c->bc_run >= DTRACE_BAG_RUNS)
		return false;
	return true;
}

/* --- which programs use baggage ------------------------------------------- */

static bool difo_calls_bag(const dif_difo_t *dp)
{
	for (uint32_t i = 0; dp != NULL && i < dp->dd_ninsns; i++) {
		uint32_t subr = DIF_INSTR_INDEX(dp->dd_insns[i]);
		if (DIF_INSTR_OP(dp->dd_insns[i]) == DIF_OP_CALL &&
		    (subr == DIF_SUBR_BAG_PACK || subr == DIF_SUBR_BAG_GET || subr == DIF_SUBR_BAG_GETSTR))
			return true;
	}
	return false;
}

bool dtrace_bag_clause_uses(const dt_clause *cl)
{
	if (difo_calls_bag(cl->cl_pred))
		return true;
	for (uint32_t a = 0; a < cl->cl_nacts; a++)
		for (uint32_t k = 0; k < cl->cl_acts[a].ac_nargs; k++)
			if (difo_calls_bag(cl->cl_acts[a].ac_args[k]))
				return true;
	return false;
}

void dtrace_bag_state_enable(dtrace_state_t *s)
{
	const dt_prog *prog = s->dts_prog;

	for (uint32_t c = 0; prog != NULL && c < prog->dp_nclauses && !s->dts_bag; c++)
		s->dts_bag = dtrace_bag_clause_uses(&prog->dp_clauses[c]);
	if (s->dts_bag && bag_states++ == 0)
		baggage_sites_set(true);
}

void dtrace_bag_state_close(dtrace_state_t *s)
{
	if (s->dts_bag && --bag_states == 0)
		baggage_sites_set(false);
	s->dts_bag = false;
}
