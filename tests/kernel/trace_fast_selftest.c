/*
 * trace_fast_selftest.c - in-kernel self-tests of dtrace_probe_frame's fast
 * loop (trace/probe_fast.c, trace/lean.c's dte_fast): the firings it takes and
 * the ones it must leave to the general path, with exact results either way.
 *
 * A test provider's probe is fired by hand through dtrace_probe_frame (as
 * fbt and sdt fire), on one CPU with interrupts off, so every count is
 * exact.  Each test reads dtrace_firing_cpu(cpu)->df_fast, the firings the fast loop
 * did alone, before and after: a keyless count() or sum(constant), a
 * count() behind a native predicate, with one native key, in a chain of
 * several clauses, under -x cpu; and what must not go fast or must leave
 * it: -x jit=0 (the interpreter), a fault (reported as the general path
 * reports it, with the ERROR probe), re-entry and the consumer's own
 * thread (refused as before).
 *
 * What this does not test: the instruction counts (make bench,
 * tests/e2e/test_firing_trace.py).
 *
 * Tests: make selftest-check (self-tests trace_fast_*)
 */
#include "arch/arch.h"
#include "dlang/dt_prog.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"
#include "trace/dtrace.h"
#include "trace/trace_impl.h"

#define FP_ARENA (1UL << 20)

static dtrace_id_t fp_probe;

static int fp_enable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg; (void)id; (void)parg;
	return 0;
}

static void fp_disable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg; (void)id; (void)parg;
}

static const dtrace_pops_t fp_ops = { .dtps_enable = fp_enable, .dtps_disable = fp_disable };

struct fp_run {
	void *arena;
	dt_prog *prog;
	dtrace_state_t *state;
};

/* fp_start: compile src, open a consumer with jit and cpu options, enable and go. */
static bool fp_start(struct fp_run *r, const char *src, uint32_t jit, int cpu)
{
	dtrace_optvals_t o;
	dt_error err;
	char eb[128];

	if (fp_probe == 0) {
		dtrace_provider_t *p = dtrace_register("fastpath", &fp_ops, NULL);
		if (p != NULL)
			fp_probe = dtrace_probe_create(p, "kernel", "fp", "hit", 0, NULL);
	}
	dtrace_opts_default(&o);
	o.dov_bufsize = 16 * 1024;
	o.dov_aggsize = 64 * 1024;
	o.dov_jit = jit;
	o.dov_cpu = cpu;
	r->arena = kmalloc(FP_ARENA);
	if (r->arena == NULL || dt_compile(src, strlen(src), NULL, r->arena, FP_ARENA, &r->prog, &err) != 0) {
		kprintf("# compile: %s\n", err.de_msg);
		return false;
	}
	return dtrace_open(&o, &r->state) == 0 &&
	       dtrace_enable(r->state, r->prog, NULL, eb, sizeof(eb)) == 0 &&
	       dtrace_go(r->state) == 0;
}

static void fp_end(struct fp_run *r)
{
	dtrace_close(r->state);
	kfree(r->arena);
}

/*
 * fp_native: does this machine translate DIF (a DIF JIT, dif/dif_jit.h)?
 * Without one (sparc64) a predicate or a key keeps the interpreter, so
 * nothing but the DIF-free adds goes fast, with -x jit=1 as with 0.
 */
static bool fp_native(void)
{
	struct fp_run r;
	bool native = false;

	if (fp_start(&r, "fastpath:::hit /arg0 % 3 == 0/ { @c = count(); }", 1, -1)) {
		const dtrace_ecb_t *e = dtrace_probe_get(fp_probe)->dtpr_ecb;
		native = e != NULL && e->dte_lean.dl_pred != NULL;
	}
	fp_end(&r);
	return native;
}

/*
 * fp_fire: n firings with arg0 = 0..n-1 and arg1 = a1 on this CPU,
 * interrupts off; *cpu is the CPU, and the result how many of them the
 * fast loop did alone.
 */
static uint64_t fp_fire(int n, uint64_t a1, int *cpu)
{
	uint64_t flags = arch_irq_save();
	*cpu = arch_cpu_id();
	dtrace_firing_t *f = dtrace_firing_cpu(*cpu);
	uint64_t before = f->df_fast;

	for (int i = 0; i < n; i++) {
		uint64_t args[6] = { (uint64_t)i, a1, 0, 0, 0, 0 };
		dtrace_probe_frame(fp_probe, *cpu, args, 0xffffffff80100000UL, 0, NULL);
	}
	uint64_t fast = f->df_fast - before;
	arch_irq_restore(flags);
	return fast;
}

/* What a CPU's aggregation buffer holds: per aggregation, entries and the sum of the first value. */
struct fp_aggs {
	int entries[4];
	int64_t total[4];
	int64_t key_min, key_max;
};

static void fp_agg_cb(void *arg, uint32_t aggid, const void *key, uint32_t keylen,
                      const int64_t *vals, uint32_t nvals)
{
	struct fp_aggs *a = arg;

	(void)nvals;
	if (aggid >= 4)
		return;
	a->entries[aggid]++;
	a->total[aggid] += vals[0];
	if (keylen == 8) {
		int64_t k;
		memcpy(&k, key, 8);
		a->key_min = MIN(a->key_min, k);
		a->key_max = MAX(a->key_max, k);
	}
}

static bool fp_aggs(struct fp_run *r, int cpu, struct fp_aggs *a)
{
	memset(a, 0, sizeof(*a));
	a->key_min = INT64_MAX;
	a->key_max = INT64_MIN;
	return dtrace_agg_snapshot(r->state, cpu, fp_agg_cb, a) == 0;
}

/*
 * Keyless count() and sum(constant), no predicate: one add each, in
 * dtrace_probe_frame itself.  The first firing makes the entries (the
 * general path); every later one is the fast loop's.  With -x jit=0 the
 * same (these clauses have no DIF to run).
 */
SELFTEST(trace_fast_keyless_adds)
{
	static const char *src = "fastpath:::hit { @c = count(); } fastpath:::hit { @s = sum(5); }";
	struct fp_run r;
	struct fp_aggs a;
	int cpu;

	for (uint32_t jit = 0; jit <= 1; jit++) {
		ST_ASSERT(fp_start(&r, src, jit, -1));
		ST_ASSERT(fp_fire(100, 0, &cpu) == 99);
		ST_ASSERT(fp_aggs(&r, cpu, &a));
		ST_ASSERT(a.entries[0] == 1 && a.total[0] == 100);
		ST_ASSERT(a.entries[1] == 1 && a.total[1] == 500);
		fp_end(&r);
	}
}

/*
 * count() behind a native predicate (probe_fire_count), with one native
 * key (probe_fire_key), and both in one chain (probe_fire_more's loop):
 * fast after the first firing that makes an entry, and exact.  Under
 * -x jit=0 none of it is fast (the interpreter runs the predicate and the
 * key), with the same results.
 */
SELFTEST(trace_fast_predicate_and_key)
{
	struct fp_run r;
	struct fp_aggs a;
	int cpu;
	bool native = fp_native();

	ST_ASSERT(fp_start(&r, "fastpath:::hit /arg0 % 3 == 0/ { @c = count(); }", 1, -1));
	ST_ASSERT(fp_fire(100, 0, &cpu) == (native ? 99 : 0));   /* arg0 = 0 makes the entry */
	ST_ASSERT(fp_aggs(&r, cpu, &a) && a.entries[0] == 1 && a.total[0] == 34);
	fp_end(&r);

	ST_ASSERT(fp_start(&r, "fastpath:::hit { @k[arg0 % 4] = count(); }", 1, -1));
	ST_ASSERT(fp_fire(100, 0, &cpu) == (native ? 100 : 0));  /* dtrace_agg_word makes keys itself */
	ST_ASSERT(fp_aggs(&r, cpu, &a) && a.entries[0] == 4 && a.total[0] == 100);
	ST_ASSERT(a.key_min == 0 && a.key_max == 3);
	fp_end(&r);

	for (uint32_t jit = 0; jit <= 1; jit++) {
		ST_ASSERT(fp_start(&r, "fastpath:::hit /arg0 % 3 == 0/ { @c = count(); } "
		                       "fastpath:::hit { @k[arg0 % 4] = count(); } "
		                       "fastpath:::hit { @n = count(); }", jit, -1));
		uint64_t fast = fp_fire(100, 0, &cpu);
		ST_ASSERT(jit && native ? fast == 99 : fast == 0);
		ST_ASSERT(fp_aggs(&r, cpu, &a));
		ST_ASSERT(a.entries[0] == 1 && a.total[0] == 34);
		ST_ASSERT(a.entries[1] == 4 && a.total[1] == 100);
		ST_ASSERT(a.entries[2] == 1 && a.total[2] == 100);
		fp_end(&r);
	}
}

/* -x cpu: the one-adds leave dtrace_probe_frame (lean.c), the other CPUs' firings count nothing. */
SELFTEST(trace_fast_cpu_option)
{
	struct fp_run r;
	struct fp_aggs a;
	int cpu = arch_cpu_id(), here;

	for (int other = 0; other <= (ncpus > 1); other++) {
		int want = other ? (cpu + 1) % ncpus : cpu;
		ST_ASSERT(fp_start(&r, "fastpath:::hit { @c = count(); } fastpath:::hit { @s = sum(7); }", 1,
		                   want));
		uint64_t fast = fp_fire(50, 0, &here);
		ST_ASSERT(fp_aggs(&r, here, &a));
		if (here == want) {
			ST_ASSERT(fast == 49);
			ST_ASSERT(a.total[0] == 50 && a.total[1] == 350);
		} else {
			ST_ASSERT(fast == 50);           /* nothing to do is done fast */
			ST_ASSERT(a.entries[0] == 0 && a.entries[1] == 0);
		}
		fp_end(&r);
	}
}

/*
 * A fault in a fast predicate or key (division by zero) is reported as the
 * general path reports it: counted, an error record, and dtrace:::ERROR
 * fired for this consumer; the clauses after it still fire.
 */
SELFTEST(trace_fast_fault_reported)
{
	static const char *srcs[] = {
		"fastpath:::hit /arg0 / arg1 == 1/ { @c = count(); } dtrace:::ERROR { @e = count(); } "
		"fastpath:::hit { @n = count(); }",
		"fastpath:::hit { @c[arg0 / arg1] = count(); } dtrace:::ERROR { @e = count(); } "
		"fastpath:::hit { @n = count(); }",
	};
	struct fp_run r;
	struct fp_aggs a;
	dtrace_status_t st;
	int cpu;
	bool native = fp_native();

	for (size_t i = 0; i < ARRAY_SIZE(srcs); i++) {
		ST_ASSERT(fp_start(&r, srcs[i], 1, -1));
		ST_ASSERT(fp_fire(10, 0, &cpu) == 0);
		dtrace_status_get(r.state, &st);
		ST_ASSERT(st.dst_errors == 10);
		ST_ASSERT(fp_aggs(&r, cpu, &a));
		ST_ASSERT(a.entries[0] == 0);            /* the faulted clause: nothing */
		ST_ASSERT(a.total[1] == 10 && a.total[2] == 10);   /* ERROR fired; the next clause too */
		/* No fault: fast again, but for the predicate's first true firing (arg0 = 1: the entry). */
		ST_ASSERT(fp_fire(10, 1, &cpu) == (!native ? 0 : i == 0 ? 9 : 10));
		ST_ASSERT(fp_aggs(&r, cpu, &a) && a.total[0] == (i == 0 ? 1 : 10) && a.total[2] == 20);
		fp_end(&r);
	}
}

/*
 * The fast loop keeps the rules: a firing inside a firing is refused and
 * counted, and the consumer's own thread fires nothing.
 */
SELFTEST(trace_fast_reentry_and_consumer)
{
	struct fp_run r;
	struct fp_aggs a;
	int cpu;

	ST_ASSERT(fp_start(&r, "fastpath:::hit { @c = count(); }", 1, -1));
	ST_ASSERT(fp_fire(5, 0, &cpu) == 4);
	uint64_t flags = arch_irq_save();
	cpu = arch_cpu_id();
	dtrace_firing_t *f = dtrace_firing_cpu(cpu);
	uint64_t reentries = f->df_reentries;
	f->df_inprobe = true;                        /* as if inside a firing */
	uint64_t fast = fp_fire(3, 0, &cpu);
	f->df_inprobe = false;
	uint64_t refused = f->df_reentries - reentries;
	f->df_reentries = reentries;                 /* a global count: other tests read it */
	struct thread *t = curthread();
	bool was = t->t_untraced;
	t->t_untraced = true;                        /* as if the consumer's own thread */
	fast += fp_fire(3, 0, &cpu);
	t->t_untraced = was;
	arch_irq_restore(flags);
	ST_ASSERT(fast == 0 && refused == 3);
	ST_ASSERT(fp_aggs(&r, cpu, &a) && a.total[0] == 5);
	fp_end(&r);
}

/*
 * A predicate `argN OP constant` is compared by the fast loop itself
 * (lean.c's dl_cmp_op, probe_fire_cmp) instead of calling its native
 * code: every compare the compiler makes (the ten DIF branches, signed and
 * unsigned, a negative argument and a negative constant; against 0 through
 * tst, and a bare argument) against the same
 * comparison made here in C, over arg0 = 0..99 with arg1 = -5 and then 7.
 * With -x jit=0, or on a machine without a DIF JIT, the shape is not taken
 * (the interpreter runs it) and the counts are the same.
 */
struct fp_cmp {
	const char *pred;
	int arg;                /* 0 or 1 */
	char op;                /* = ! < l(<=) > g(>=) */
	bool uns;
	int64_t c;
};

static bool fp_cmp_true(const struct fp_cmp *t, uint64_t a)
{
	uint64_t b = (uint64_t)t->c;
	bool lt = t->uns ? a < b : (int64_t)a < (int64_t)b;

	switch (t->op) {
	case '=': return a == b;
	case '!': return a != b;
	case '<': return lt;
	case 'l': return lt || a == b;
	case '>': return !lt && a != b;
	default:  return !lt;
	}
}

SELFTEST(trace_fast_compare_predicates)
{
	static const struct fp_cmp tests[] = {
		{ "arg0 == 42", 0, '=', false, 42 },            /* bne */
		{ "arg0 != 42", 0, '!', false, 42 },            /* be */
		{ "arg0 < 10", 0, '<', false, 10 },             /* bge */
		{ "arg0 <= 10", 0, 'l', false, 10 },            /* bg */
		{ "arg0 > 90", 0, '>', false, 90 },             /* ble */
		{ "arg0 >= 90", 0, 'g', false, 90 },            /* bl */
		{ "arg1 < 0", 1, '<', false, 0 },               /* tst; bge; signed: -5 is below */
		{ "arg1 < 2", 1, '<', false, 2 },
		{ "arg0 != 0", 0, '!', false, 0 },              /* tst; be */
		{ "arg1", 1, '!', false, 0 },                   /* ldgs; ret */
		{ "arg0 == 0", 0, '=', false, 0 },
		{ "arg1 >= -5", 1, 'g', false, -5 },
		{ "(uint64_t)arg1 < 10", 1, '<', true, 10 },    /* bgeu: -5 is huge */
		{ "(uint64_t)arg1 <= 7", 1, 'l', true, 7 },     /* bgu */
		{ "(uint64_t)arg1 > 10", 1, '>', true, 10 },    /* bleu */
		{ "(uint64_t)arg1 >= 7", 1, 'g', true, 7 },     /* blu */
	};
	bool native = fp_native();
	char src[128];
	struct fp_run r;
	struct fp_aggs a;
	int cpu;

	for (size_t k = 0; k < sizeof(tests) / sizeof(tests[0]); k++) {
		const struct fp_cmp *t = &tests[k];
		int64_t want = 0;
		for (int i = 0; i < 200; i++)
			want += fp_cmp_true(t, t->arg == 0 ? (uint64_t)(i % 100) : (uint64_t)(i < 100 ? -5 : 7));
		ksnprintf(src, sizeof(src), "fastpath:::hit /%s/ { @c = count(); }", t->pred);
		for (uint32_t jit = 0; jit <= 1; jit++) {
			ST_ASSERT(fp_start(&r, src, jit, -1));
			const dtrace_ecb_t *e = dtrace_probe_get(fp_probe)->dtpr_ecb;
			ST_ASSERT(e != NULL && e->dte_next == NULL && (e->dte_lean.dl_cmp_op != 0) == (jit == 1 && native));
			fp_fire(100, (uint64_t)-5, &cpu);
			fp_fire(100, 7, &cpu);
			ST_ASSERT(fp_aggs(&r, cpu, &a));
			if (a.total[0] != want)
				kprintf("# %s (jit %u): %lld, want %lld\n", t->pred, jit, (long long)a.total[0],
				        (long long)want);
			ST_ASSERT(a.total[0] == want);
			fp_end(&r);
		}
	}
}
