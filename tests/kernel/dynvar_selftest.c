/*
 * dynvar_selftest.c - in-kernel self-tests of the dynamic variable space
 * (trace/dynvar.c) on every CPU there is.
 *
 *   dynvar_smp_hammer      one thread bound to each CPU fires a test probe
 *                          whose clauses create and delete elements of one
 *                          associative array (keys of its own CPU, and eight
 *                          keys every CPU fights over) and a thread-local,
 *                          while this thread runs the cleaner as fast as it
 *                          can: exact final values, no drops, and after the
 *                          last delete and a cleaner pass every entry is free.
 *   dynvar_model_fuzz      random stores, loads and deletes, made directly
 *                          through the DIF callbacks (dtrace_var_store/load)
 *                          with interrupts off as in probe context, checked
 *                          against a reference model, over strsize x
 *                          dynvarsize x six variables of every shape (thread
 *                          integer and string, arrays of one and three
 *                          integer keys, string keys, string values), one
 *                          model per CPU, all CPUs at once; then no entry
 *                          left live once everything is deleted.
 *
 * On one CPU they test the same things without the concurrency.
 */
#include "arch/arch.h"
#include "dlang/dt_prog.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"
#include "trace/dtrace.h"
#include "trace/trace_impl.h"

#define ARENA (1UL << 20)

static dtrace_id_t dv_probe;

static int dv_enable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg; (void)id; (void)parg;
	return 0;
}

static void dv_disable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg; (void)id; (void)parg;
}

static const dtrace_pops_t dv_ops = { .dtps_enable = dv_enable, .dtps_disable = dv_disable };

struct dv_run {
	void *arena;
	dt_prog *prog;
	dtrace_state_t *state;
};

/* dv_start: compile src, open a consumer with o, enable and go. */
static bool dv_start(struct dv_run *r, const char *src, const dtrace_optvals_t *o)
{
	dt_error err;
	char eb[128];

	if (dv_probe == 0) {
		dtrace_provider_t *p = dtrace_register("dvtest", &dv_ops, NULL);
		if (p != NULL)
			dv_probe = dtrace_probe_create(p, "kernel", "dv", "hit", 0, NULL);
	}
	r->state = NULL;
	r->arena = kmalloc(ARENA);
	if (r->arena == NULL || dt_compile(src, strlen(src), NULL, r->arena, ARENA, &r->prog, &err) != 0) {
		kprintf("# compile: %s\n", err.de_msg);
		return false;
	}
	if (dtrace_open(o, &r->state) != 0 || dtrace_enable(r->state, r->prog, NULL, eb, sizeof(eb)) != 0 ||
	    dtrace_go(r->state) != 0) {
		kprintf("# enable: %s\n", eb);
		return false;
	}
	return true;
}

static void dv_end(struct dv_run *r)
{
	if (r->state != NULL)
		dtrace_close(r->state);
	kfree(r->arena);
}

static void dv_fire(uint64_t a0, uint64_t a1, uint64_t a2)
{
	uint64_t flags = arch_irq_save();

	dtrace_probe(dv_probe, a0, a1, a2, 0, 0, 0);
	arch_irq_restore(flags);
}

/* dv_all_free: after a cleaner pass, every entry is back on a free list. */
static bool dv_all_free(dtrace_state_t *s)
{
	dtrace_dynvar_census_t c;

	dtrace_dynvar_clean(s);
	dtrace_dynvar_census(s, &c);
	if (c.ddn_live != 0 || c.ddn_dirty != 0 || c.ddn_free != c.ddn_total || c.ddn_onfree != c.ddn_total)
		kprintf("# census: %u entries, %u live, %u dirty, %u free, %u on free lists\n", c.ddn_total,
		        c.ddn_live, c.ddn_dirty, c.ddn_free, c.ddn_onfree);
	return c.ddn_live == 0 && c.ddn_dirty == 0 && c.ddn_free == c.ddn_total &&
	       c.ddn_onfree == c.ddn_total;
}

static uint64_t dv_drops(dtrace_state_t *s)
{
	uint64_t d, dirty, rinse;

	dtrace_dynvar_drops(s, &d, &dirty, &rinse);
	return d + dirty + rinse;
}

/* ---- all CPUs on one array ---- */

#define HAMMER_KEYS   48
#define HAMMER_ROUNDS 400

static const char hammer_src[] =
	"dvtest:::hit /arg0 == 0/ { a[cpu, arg1] = arg2; self->x = arg2; s[arg1 % 8] = arg2; }"
	"dvtest:::hit /arg0 == 1/ { a[cpu, arg1] = 0; self->x = 0; s[arg1 % 8] = 0; }"
	"dvtest:::hit /arg0 == 2/ { @sum = sum(a[cpu, arg1]); @self = sum(self->x); }"
	"dvtest:::hit /arg0 == 3/ { s[arg1] = 0; }";

struct hammer {
	int hm_cpu;
	volatile int *hm_done;
};

static void hammer_worker(void *arg)
{
	struct hammer *h = arg;

	thread_bind(h->hm_cpu);
	for (int round = 0; round < HAMMER_ROUNDS; round++) {
		for (uint64_t k = 0; k < HAMMER_KEYS; k++)
			dv_fire(0, k, k + 1);
		for (uint64_t k = round & 1; k < HAMMER_KEYS; k += 1 + (round & 1))
			dv_fire(1, k, 0);
	}
	for (uint64_t k = 0; k < HAMMER_KEYS; k++)
		dv_fire(0, k, k + 1);                /* a[cpu, k] = k + 1; self->x = K at the end */
	for (uint64_t k = 0; k < HAMMER_KEYS; k++)
		dv_fire(2, k, 0);
	for (uint64_t k = 0; k < HAMMER_KEYS; k++)
		dv_fire(1, k, 0);
	__atomic_add_fetch(h->hm_done, 1, __ATOMIC_RELEASE);
}

struct hammer_sums {
	int64_t hs[2];
	int n;
};

static void hammer_agg(void *arg, uint32_t aggid, const void *key, uint32_t keylen,
                       const int64_t *vals, uint32_t nvals)
{
	struct hammer_sums *h = arg;

	(void)key; (void)keylen;
	if (aggid < 2 && nvals > 0)
		h->hs[aggid] = vals[0];
	h->n++;
}

SELFTEST(dynvar_smp_hammer)
{
	struct dv_run r;
	dtrace_optvals_t o;
	struct hammer h[MAX_CPUS];
	uint64_t tid[MAX_CPUS];
	volatile int done = 0;

	dtrace_opts_default(&o);
	o.dov_bufsize = 4096;
	o.dov_dynvarsize = 8UL << 20;     /* room to spare while the cleaner catches up */
	ST_ASSERT(dv_start(&r, hammer_src, &o));
	if (r.state == NULL) {
		dv_end(&r);
		return;
	}
	for (int cpu = 0; cpu < ncpus; cpu++) {
		h[cpu] = (struct hammer){ cpu, &done };
		tid[cpu] = thread_spawn("st-dynvar", hammer_worker, &h[cpu]);
		ST_ASSERT(tid[cpu] != 0);
	}
	while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) < ncpus) {
		dtrace_dynvar_clean(r.state);       /* the cleaner, racing every CPU */
		thread_yield();
	}
	for (int cpu = 0; cpu < ncpus; cpu++)
		thread_join(tid[cpu]);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct hammer_sums sums = { { -1, -1 }, 0 };
		ST_ASSERT(dtrace_agg_snapshot(r.state, cpu, hammer_agg, &sums) == 0);
		ST_ASSERT(sums.hs[0] == HAMMER_KEYS * (HAMMER_KEYS + 1) / 2);
		ST_ASSERT(sums.hs[1] == HAMMER_KEYS * HAMMER_KEYS);
	}
	for (uint64_t k = 0; k < 8; k++)
		dv_fire(3, k, 0);                    /* a duplicate s[k] would survive this */
	ST_ASSERT(dv_drops(r.state) == 0);
	ST_ASSERT(dv_all_free(r.state));
	dv_end(&r);
}

/* ---- random operations against a model ---- */

#define FUZZ_OPS     1200
#define FUZZ_ENTRIES 160                  /* model entries: more than one CPU's key space */
#define FUZZ_STR     24                   /* longest test string, NUL included */

/* The variables of fuzz_src, in order. */
enum { FV_SELF_INT, FV_SELF_STR, FV_A, FV_B, FV_C, FV_D, FV_N };

static const char fuzz_src[] =
	"dvtest:::hit { self->i = 1; self->t = \"s\"; a[1] = 1; b[1, 2, 3] = 1;"
	" c[\"k\"] = \"v\"; d[\"k\", 1] = 1; }";
static const char *const fuzz_names[FV_N] = { "i", "t", "a", "b", "c", "d" };

struct fuzz_entry {
	bool fe_used;
	int fe_var;
	uint64_t fe_ikey[3];
	char fe_skey[FUZZ_STR];
	uint64_t fe_ival;
	char fe_sval[FUZZ_STR];
};

struct fuzz {
	dtrace_state_t *fz_state;
	dif_var_t fz_vars[FV_N];
	int fz_cpu;
	uint64_t fz_rand;
	uint32_t fz_strsize;
	uint32_t fz_failures;             /* model mismatches */
	uint64_t fz_ops, fz_drops;
	volatile int *fz_done;
	struct fuzz_entry fz_model[FUZZ_ENTRIES];
};

static uint64_t fuzz_next(struct fuzz *f)
{
	f->fz_rand ^= f->fz_rand << 13;
	f->fz_rand ^= f->fz_rand >> 7;
	f->fz_rand ^= f->fz_rand << 17;
	return f->fz_rand;
}

static bool var_is_string(int v)
{
	return v == FV_SELF_STR || v == FV_C;
}

/* fuzz_key: a random key for variable v (this CPU's keys only). */
static void fuzz_key(struct fuzz *f, int v, struct fuzz_entry *k)
{
	static const char *const pool[] = { "", "a", "b", "ab", "abc", "key", "a long string key" };

	memset(k, 0, sizeof(*k));
	k->fe_var = v;
	for (int i = 0; i < 3; i++)
		k->fe_ikey[i] = (uint64_t)f->fz_cpu << 32 | (fuzz_next(f) % 4);
	const char *p = pool[fuzz_next(f) % ARRAY_SIZE(pool)];
	k->fe_skey[0] = (char)('0' + f->fz_cpu);   /* a string key of this CPU's own */
	ksnprintf(k->fe_skey + 1, sizeof(k->fe_skey) - 1, "%s", p);
	k->fe_skey[MIN(f->fz_strsize, (uint32_t)FUZZ_STR) - 1] = 0; /* what D would hand over */
}

static bool key_same(const struct fuzz_entry *a, const struct fuzz_entry *b)
{
	if (a->fe_var != b->fe_var)
		return false;
	switch (a->fe_var) {
	case FV_A: return a->fe_ikey[0] == b->fe_ikey[0];
	case FV_B: return memcmp(a->fe_ikey, b->fe_ikey, sizeof(a->fe_ikey)) == 0;
	case FV_C: return strcmp(a->fe_skey, b->fe_skey) == 0;
	case FV_D: return strcmp(a->fe_skey, b->fe_skey) == 0 && a->fe_ikey[0] == b->fe_ikey[0];
	default: return true;                  /* thread-locals: one per thread */
	}
}

static struct fuzz_entry *model_find(struct fuzz *f, const struct fuzz_entry *k)
{
	for (int i = 0; i < FUZZ_ENTRIES; i++)
		if (f->fz_model[i].fe_used && key_same(&f->fz_model[i], k))
			return &f->fz_model[i];
	return NULL;
}

/* fuzz_ref: the DIF variable reference for key k (keys points at 3 tuple members). */
static void fuzz_ref(struct fuzz *f, const struct fuzz_entry *k, dif_key_t *keys, dif_varref_t *ref)
{
	ref->vr_var = &f->fz_vars[k->fe_var];
	ref->vr_keys = keys;
	ref->vr_nkeys = 0;
	switch (k->fe_var) {
	case FV_A:
		keys[0] = (dif_key_t){ k->fe_ikey[0], 0 };
		ref->vr_nkeys = 1;
		break;
	case FV_B:
		for (int i = 0; i < 3; i++)
			keys[i] = (dif_key_t){ k->fe_ikey[i], 0 };
		ref->vr_nkeys = 3;
		break;
	case FV_C:
	case FV_D:
		keys[0] = (dif_key_t){ (uint64_t)k->fe_skey, strlen(k->fe_skey) + 1 };
		keys[1] = (dif_key_t){ k->fe_ikey[0], 0 };
		ref->vr_nkeys = k->fe_var == FV_C ? 1 : 2;
		break;
	}
}

static uint64_t cpu_drops(struct fuzz *f)
{
	const dtrace_dynvar_cpu_t *c = &f->fz_state->dts_dyn.dds_cpu[f->fz_cpu];

	return c->ddc_drops + c->ddc_dirtydrops + c->ddc_rinsedrops;
}

/* fuzz_store: store (or delete, with 0) through dtrace_var_store, and in the model. */
static void fuzz_store(struct fuzz *f, struct fuzz_entry *k, bool del)
{
	dif_key_t keys[3];
	dif_varref_t ref;
	char sval[FUZZ_STR];
	uint64_t ival = del ? 0 : 1 + fuzz_next(f) % 1000;

	ksnprintf(sval, sizeof(sval), "v%lu-%lu", ival, fuzz_next(f) % 100000);
	fuzz_ref(f, k, keys, &ref);
	bool str = var_is_string(k->fe_var) && !del;
	uint64_t flags = arch_irq_save();
	uint64_t before = cpu_drops(f);
	dtrace_var_store(f->fz_state, &ref, str ? 0 : ival, str ? sval : NULL, str ? strlen(sval) + 1 : 0);
	bool dropped = cpu_drops(f) != before;
	arch_irq_restore(flags);

	struct fuzz_entry *e = model_find(f, k);
	f->fz_drops += dropped;
	if (dropped && (e != NULL || del))
		f->fz_failures++;               /* only making an entry may drop */
	if (del || dropped) {
		if (e != NULL)
			e->fe_used = false;
		return;
	}
	if (e == NULL) {
		for (int i = 0; i < FUZZ_ENTRIES && e == NULL; i++)
			if (!f->fz_model[i].fe_used)
				e = &f->fz_model[i];
		*e = *k;                         /* the key space is smaller than the model */
		e->fe_used = true;
	}
	e->fe_ival = ival;
	ksnprintf(e->fe_sval, MIN(f->fz_strsize, (uint32_t)sizeof(e->fe_sval)), "%s", sval);
}

/* fuzz_load: load through dtrace_var_load and compare with the model. */
static void fuzz_load(struct fuzz *f, const struct fuzz_entry *k)
{
	dif_key_t keys[3];
	dif_varref_t ref;
	uint64_t v = 0;
	bool ok;

	fuzz_ref(f, k, keys, &ref);
	const struct fuzz_entry *e = model_find(f, k);
	uint64_t flags = arch_irq_save();
	dtrace_var_load(f->fz_state, &ref, &v);
	if (var_is_string(k->fe_var))    /* an absent string element reads as NULL */
		ok = e != NULL ? v != 0 && strcmp((const char *)v, e->fe_sval) == 0 : v == 0;
	else
		ok = v == (e != NULL ? e->fe_ival : 0);
	arch_irq_restore(flags);
	f->fz_failures += !ok;
}

static void fuzz_worker(void *arg)
{
	struct fuzz *f = arg;
	struct fuzz_entry k;

	thread_bind(f->fz_cpu);
	for (int op = 0; op < FUZZ_OPS; op++) {
		fuzz_key(f, (int)(fuzz_next(f) % FV_N), &k);
		uint64_t what = fuzz_next(f) % 8;
		if (what < 3)
			fuzz_store(f, &k, false);
		else if (what < 5)
			fuzz_store(f, &k, true);
		else
			fuzz_load(f, &k);
		f->fz_ops++;
	}
	for (int i = 0; i < FUZZ_ENTRIES; i++)        /* delete what is left */
		if (f->fz_model[i].fe_used)
			fuzz_store(f, &f->fz_model[i], true);
	__atomic_add_fetch(f->fz_done, 1, __ATOMIC_RELEASE);
}

/* fuzz_vars: the DIF variables of fuzz_src as a DIFO would name them. */
static bool fuzz_vars(struct fuzz *f, const dt_prog *p)
{
	for (int v = 0; v < FV_N; v++) {
		const dt_vardesc *d = NULL;
		for (uint32_t i = 0; i < p->dp_nvars; i++)
			if (strcmp(p->dp_vars[i].vd_name, fuzz_names[v]) == 0)
				d = &p->dp_vars[i];
		if (d == NULL)
			return false;
		f->fz_vars[v] = (dif_var_t){
			.dv_id = d->vd_id, .dv_scope = d->vd_scope, .dv_kind = d->vd_kind,
			.dv_type = var_is_string(v) ? (dif_type_t){ DIF_TYPE_STRING, DIF_TF_BYREF, 0, 0 }
			                            : (dif_type_t){ DIF_TYPE_INT, DIF_TF_SIGNED, 0, 8 },
		};
	}
	return true;
}

/* fuzz_one: one (strsize, dynvarsize) configuration on every CPU at once. */
static bool fuzz_one(struct selftest_ctx *st_ctx, uint32_t strsize, uint64_t dynvarsize,
                     uint64_t seed, uint64_t *ops, uint64_t *drops)
{
	struct dv_run r;
	dtrace_optvals_t o;
	struct fuzz *f[MAX_CPUS];
	uint64_t tid[MAX_CPUS];
	volatile int done = 0;
	bool ok = true;

	dtrace_opts_default(&o);
	o.dov_bufsize = 4096;
	o.dov_strsize = strsize;
	o.dov_dynvarsize = dynvarsize;
	if (!dv_start(&r, fuzz_src, &o)) {
		dv_end(&r);
		return false;
	}
	for (int cpu = 0; cpu < ncpus; cpu++) {
		f[cpu] = kzalloc(sizeof(*f[cpu]));
		if (f[cpu] == NULL || !fuzz_vars(f[cpu], r.prog))
			return false;
		f[cpu]->fz_state = r.state;
		f[cpu]->fz_cpu = cpu;
		f[cpu]->fz_rand = seed * 0x9e3779b97f4a7c15ull + (uint64_t)cpu + 1;
		f[cpu]->fz_strsize = strsize;
		f[cpu]->fz_done = &done;
		tid[cpu] = thread_spawn("st-dvfuzz", fuzz_worker, f[cpu]);
	}
	while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) < ncpus) {
		dtrace_dynvar_clean(r.state);
		thread_yield();
	}
	for (int cpu = 0; cpu < ncpus; cpu++) {
		thread_join(tid[cpu]);
		if (f[cpu]->fz_failures != 0)
			kprintf("# strsize %u dynvarsize %lu cpu %d: %u mismatches\n", strsize, dynvarsize,
			        cpu, f[cpu]->fz_failures);
		ok &= f[cpu]->fz_failures == 0;
		*ops += f[cpu]->fz_ops;
		*drops += f[cpu]->fz_drops;
		kfree(f[cpu]);
	}
	ok &= dv_all_free(r.state);
	ST_ASSERT(ok);
	dv_end(&r);
	return ok;
}

SELFTEST(dynvar_model_fuzz)
{
	static const uint32_t strsizes[] = { 2, 3, 8, 13, 64, 256 };
	static const uint64_t dynvarsizes[] = { 0, 100, 1000, 8192, 1UL << 20 };
	uint64_t ops = 0, drops = 0, seed = 1;

	for (size_t i = 0; i < ARRAY_SIZE(strsizes); i++)
		for (size_t j = 0; j < ARRAY_SIZE(dynvarsizes); j++)
			if (!fuzz_one(st_ctx, strsizes[i], dynvarsizes[j], seed++, &ops, &drops))
				kprintf("# failed: strsize %u dynvarsize %lu\n", strsizes[i], dynvarsizes[j]);
	kprintf("# %lu operations, %lu of them dropped stores\n", ops, drops);
	ST_ASSERT(drops > 0 && drops < ops);           /* the small spaces did fill */
}
