/*
 * trace_selftest.c - in-kernel self-tests of the tracing framework: glob
 * matching, quantize buckets, and whole enablings driven through a test
 * provider whose probe the tests fire by hand (so counts are exact): the
 * three buffer policies, drops, the exit reserve, aggregations, dynamic
 * variable exhaustion, the aggregation drain, the deadman (and a consumer it spares), that closing
 * a consumer frees everything it allocated, that nothing fires after exit()
 * and that dtrace_stop disarms, the
 * re-entry rule, and where stack() starts for a probe fired from a trap.
 */
#include "arch/arch.h"
#include "dlang/dt_prog.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"
#include "kernel/xcall.h"
#include "trace/dtrace.h"
#include "trace/trace_impl.h"         /* the firing state, for the re-entry test */

#define ARENA (1UL << 20)

static dtrace_id_t st_probe;
static int st_enabled;

static int st_enable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg; (void)id; (void)parg;
	st_enabled++;
	return 0;
}

static void st_disable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg; (void)id; (void)parg;
	st_enabled--;
}

static const dtrace_pops_t st_ops = { .dtps_enable = st_enable, .dtps_disable = st_disable };

static void st_provider(void)
{
	if (st_probe == 0) {
		dtrace_provider_t *p = dtrace_register("selftest", &st_ops, NULL);
		if (p != NULL)
			st_probe = dtrace_probe_create(p, "kernel", "st", "hit", 0, NULL);
	}
}

struct st_run {
	void *arena;
	dt_prog *prog;
	dtrace_state_t *state;
	uint8_t *buf;
	size_t bufsize;
};

/* st_start: compile src, open a consumer with o, enable and go; NULL on failure. */
static bool st_start(struct st_run *r, const char *src, const dtrace_optvals_t *o)
{
	dt_error err;
	char eb[128];

	st_provider();
	r->arena = kmalloc(ARENA);
	r->bufsize = o->dov_bufsize * 2 + 64;
	r->buf = kmalloc(r->bufsize);
	if (r->arena == NULL || r->buf == NULL ||
	    dt_compile(src, strlen(src), NULL, r->arena, ARENA, &r->prog, &err) != 0) {
		kprintf("# compile: %s\n", err.de_msg);
		return false;
	}
	return dtrace_open(o, &r->state) == 0 &&
	       dtrace_enable(r->state, r->prog, NULL, eb, sizeof(eb)) == 0 &&
	       dtrace_go(r->state) == 0;
}

static void st_end(struct st_run *r)
{
	dtrace_close(r->state);
	kfree(r->arena);
	kfree(r->buf);
}

/* fire: the test probe n times on one CPU (interrupts off: no migration); returns the CPU. */
static int fire(int n)
{
	uint64_t flags = arch_irq_save();
	int cpu = arch_cpu_id();

	for (int i = 0; i < n; i++)
		dtrace_probe(st_probe, (uint64_t)i, 0, 0, 0, 0, 0);
	arch_irq_restore(flags);
	return cpu;
}

/* records: count the records in buf (and the last traced arg0). */
static int records(const uint8_t *buf, long len, uint64_t *first, uint64_t *last)
{
	int n = 0;

	for (long off = 0; off < len;) {
		const dtrace_rechdr_t *h = (const dtrace_rechdr_t *)(buf + off);
		if (h->dtrh_size == 0)
			break;
		if (h->dtrh_epid != 0 && h->dtrh_epid != DTRACE_EPID_ERROR) {
			uint64_t v;
			memcpy(&v, h + 1, 8);
			if (n == 0 && first)
				*first = v;
			if (last)
				*last = v;
			n++;
		}
		off += h->dtrh_size;
	}
	return n;
}

SELFTEST(trace_glob)
{
	ST_ASSERT(dtrace_glob_match("", "anything"));
	ST_ASSERT(dtrace_glob_match("k*", "kmalloc"));
	ST_ASSERT(dtrace_glob_match("*alloc", "kmalloc"));
	ST_ASSERT(dtrace_glob_match("k?alloc", "kmalloc"));
	ST_ASSERT(!dtrace_glob_match("k?alloc", "kmmalloc"));
	ST_ASSERT(dtrace_glob_match("[a-k]malloc", "kmalloc"));
	ST_ASSERT(!dtrace_glob_match("[!k]malloc", "kmalloc"));
	ST_ASSERT(dtrace_glob_match("tick-*", "tick-1s"));
	ST_ASSERT(!dtrace_glob_match("tick", "tick-1s"));
	ST_ASSERT(dtrace_glob_match("a\\*b", "a*b"));
	ST_ASSERT(!dtrace_glob_match("a\\*b", "axb"));
	ST_ASSERT(dtrace_glob_match("*", ""));
}

SELFTEST(trace_quantize_buckets)
{
	ST_ASSERT(dtrace_quantize_bucket(0) == DTRACE_QUANTIZE_ZEROBUCKET);
	ST_ASSERT(dtrace_quantize_bucketval(dtrace_quantize_bucket(1)) == 1);
	ST_ASSERT(dtrace_quantize_bucketval(dtrace_quantize_bucket(3)) == 2);
	ST_ASSERT(dtrace_quantize_bucketval(dtrace_quantize_bucket(64)) == 64);
	ST_ASSERT(dtrace_quantize_bucketval(dtrace_quantize_bucket(127)) == 64);
	ST_ASSERT(dtrace_quantize_bucketval(dtrace_quantize_bucket(-1)) == -1);
	ST_ASSERT(dtrace_quantize_bucketval(dtrace_quantize_bucket(-3)) == -2);
	ST_ASSERT(dtrace_quantize_bucket(INT64_MAX) == DTRACE_QUANTIZE_NBUCKETS - 1);
	ST_ASSERT(dtrace_quantize_bucket(INT64_MIN) == 0);
}

SELFTEST(trace_switch_drops_exactly)
{
	struct st_run r;
	dtrace_optvals_t o;
	dtrace_status_t st;
	uint64_t first = 99, last = 0;

	dtrace_opts_default(&o);
	o.dov_bufsize = 10 * 16;                /* ten 16-byte records per half */
	ST_ASSERT(st_start(&r, "selftest:::hit { trace(arg0); }", &o));
	ST_ASSERT(st_enabled == 1);
	int cpu = fire(25);
	long n = dtrace_buffer_snapshot(r.state, cpu, r.buf, r.bufsize);
	ST_ASSERT(records(r.buf, n, &first, &last) == 10 && first == 0 && last == 9);
	dtrace_status_get(r.state, &st);
	ST_ASSERT(st.dst_drops[cpu] == 15);
	cpu = fire(3);
	n = dtrace_buffer_snapshot(r.state, cpu, r.buf, r.bufsize);
	ST_ASSERT(records(r.buf, n, &first, &last) == 3 && first == 0 && last == 2);
	st_end(&r);
	ST_ASSERT(st_enabled == 0);
}

/* exit() is recorded, and tracing ends, even when the buffer is full of other records. */
SELFTEST(trace_exit_survives_a_full_buffer)
{
	struct st_run r;
	dtrace_optvals_t o;
	dtrace_status_t st;

	dtrace_opts_default(&o);
	o.dov_bufsize = 10 * 16;                /* full long before arg0 reaches 99 */
	ST_ASSERT(st_start(&r, "selftest:::hit { trace(arg0); } selftest:::hit /arg0 == 99/ { exit(7); }",
	                   &o));
	int cpu = fire(100);
	dtrace_status_get(r.state, &st);
	ST_ASSERT(st.dst_exited && st.dst_exitstatus == 7);
	ST_ASSERT(st.dst_drops[cpu] == 100 - 9);    /* 9 trace records fit before the exit reserve */
	long n = dtrace_buffer_snapshot(r.state, cpu, r.buf, r.bufsize);
	ST_ASSERT(n == 10 * 16);
	ST_ASSERT(((const dtrace_rechdr_t *)(r.buf + 9 * 16))->dtrh_epid == 2);   /* exit's, last */
	st_end(&r);
}

SELFTEST(trace_ring_keeps_newest)
{
	struct st_run r;
	dtrace_optvals_t o;
	uint64_t first = 0, last = 0;

	dtrace_opts_default(&o);
	o.dov_bufsize = 10 * 16;
	o.dov_bufpolicy = DTRACE_BUFPOLICY_RING;
	ST_ASSERT(st_start(&r, "selftest:::hit { trace(arg0); }", &o));
	int cpu = fire(57);
	dtrace_stop(r.state);
	long n = dtrace_buffer_snapshot(r.state, cpu, r.buf, r.bufsize);
	int k = records(r.buf, n, &first, &last);
	ST_ASSERT(k >= 9 && k <= 10);
	ST_ASSERT(last == 56 && first == 57 - (uint64_t)k);
	st_end(&r);
}

SELFTEST(trace_fill_stops_and_keeps_end)
{
	struct st_run r;
	dtrace_optvals_t o;
	dtrace_status_t st;

	dtrace_opts_default(&o);
	o.dov_bufsize = 4096;
	o.dov_bufpolicy = DTRACE_BUFPOLICY_FILL;
	ST_ASSERT(st_start(&r, "selftest:::hit { trace(arg0); } END { trace(7777); }", &o));
	uint64_t flags = arch_irq_save();           /* hits and END on the same CPU */
	int cpu = fire(1000);
	dtrace_status_get(r.state, &st);
	ST_ASSERT(st.dst_filled && st.dst_drops[cpu] > 0);
	dtrace_stop(r.state);
	arch_irq_restore(flags);
	long n = dtrace_buffer_snapshot(r.state, cpu, r.buf, r.bufsize);
	uint64_t last = 0;
	ST_ASSERT(records(r.buf, n, NULL, &last) > 100 && last == 7777);
	st_end(&r);
}

struct agg_seen {
	int entries;
	int64_t count, sum;
};

static void agg_cb(void *arg, uint32_t aggid, const void *key, uint32_t keylen,
                   const int64_t *vals, uint32_t nvals)
{
	struct agg_seen *a = arg;

	(void)key; (void)keylen; (void)nvals;
	a->entries++;
	if (aggid == 0)
		a->count += vals[0];
	else
		a->sum += vals[0];
}

/*
 * A probe that fires while a firing is in progress on the same CPU (say an
 * fbt probe on something the framework calls) is refused and counted, from
 * either entry point, and the firing in progress is left as it was.
 */
SELFTEST(trace_reentry_refused_and_counted)
{
	struct st_run r;
	dtrace_optvals_t o;
	dtrace_status_t st;
	uint64_t first = 0, last = 0, args[6] = { 7 };

	dtrace_opts_default(&o);
	o.dov_bufsize = 4096;
	ST_ASSERT(st_start(&r, "selftest:::hit { trace(arg0); }", &o));
	uint64_t flags = arch_irq_save();
	int cpu = arch_cpu_id();
	dtrace_firing_t *f = dtrace_firing_cpu(cpu);
	f->df_inprobe = true;                    /* as if inside a firing */
	f->df_frame_pc = 0x1234;
	dtrace_probe(st_probe, 5, 0, 0, 0, 0, 0);
	dtrace_probe_frame(st_probe, cpu, args, 0xffffffff80100000UL, 0, NULL);
	bool kept = f->df_frame_pc == 0x1234;
	f->df_frame_pc = 0;
	f->df_inprobe = false;
	dtrace_probe_frame(st_probe, cpu, args, 0, 0, NULL);   /* and now it fires */
	arch_irq_restore(flags);
	ST_ASSERT(kept);
	dtrace_status_get(r.state, &st);
	ST_ASSERT(st.dst_reentries == 2);
	long n = dtrace_buffer_snapshot(r.state, cpu, r.buf, r.bufsize);
	ST_ASSERT(records(r.buf, n, &first, &last) == 1 && first == 7);
	st_end(&r);
}

/* stack_of: the four PCs of the first stack(4) record in buf, or false. */
static bool stack_of(const uint8_t *buf, long len, uint64_t pcs[4])
{
	for (long off = 0; off < len;) {
		const dtrace_rechdr_t *h = (const dtrace_rechdr_t *)(buf + off);
		if (h->dtrh_size == 0)
			break;
		if (h->dtrh_epid != 0 && h->dtrh_epid != DTRACE_EPID_ERROR &&
		    h->dtrh_size == sizeof(*h) + 4 * 8) {
			memcpy(pcs, h + 1, 4 * 8);
			return true;
		}
		off += h->dtrh_size;
	}
	return false;
}

/*
 * dtrace_probe_frame's frame: stack() starts at the probed PC; at a function
 * boundary the return address in *retslot comes next, then the frames from
 * fp; inside a function, the frames from fp directly.
 */
SELFTEST(trace_probe_frame_stack)
{
	struct st_run r;
	dtrace_optvals_t o;
	uint64_t args[6] = { 0 }, pcs[4];
	uint64_t pc = 0xffffffff80100333UL, ret = 0xffffffff80100222UL;
	uint64_t frame[16] = { 0 }, fret = 0xffffffff80100111UL;
	uint64_t fp = arch_frame_make(frame, fret);        /* the machine's layout; the walk ends there */

	dtrace_opts_default(&o);
	o.dov_bufsize = 4096;
	ST_ASSERT(st_start(&r, "selftest:::hit { stack(4); }", &o));
	uint64_t flags = arch_irq_save();
	int cpu = arch_cpu_id();
	dtrace_probe_frame(st_probe, cpu, args, pc, fp, &ret);
	arch_irq_restore(flags);
	long n = dtrace_buffer_snapshot(r.state, cpu, r.buf, r.bufsize);
	ST_ASSERT(stack_of(r.buf, n, pcs));
	ST_ASSERT(pcs[0] == pc && pcs[1] == ret && pcs[2] == fret && pcs[3] == 0);

	flags = arch_irq_save();
	cpu = arch_cpu_id();
	dtrace_probe_frame(st_probe, cpu, args, pc, fp, NULL);
	ST_ASSERT(dtrace_firing_cpu(cpu)->df_frame_pc == 0);      /* cleared after the firing */
	arch_irq_restore(flags);
	n = dtrace_buffer_snapshot(r.state, cpu, r.buf, r.bufsize);
	ST_ASSERT(stack_of(r.buf, n, pcs));
	ST_ASSERT(pcs[0] == pc && pcs[1] == fret && pcs[2] == 0);
	st_end(&r);
}

/*
 * The program's variable descriptions size the dynamic variables; a DIFO
 * that uses more keys than its program declares (a lying or buggy compiler)
 * gets its stores dropped and counted, never written past an entry.
 */
SELFTEST(trace_dynvar_keys_beyond_declared_dropped)
{
	dtrace_optvals_t o;
	dtrace_state_t *state;
	dtrace_status_t st;
	dt_prog *prog;
	dt_error err;
	char eb[128];
	const char *src = "selftest:::hit { a[arg0, \"a key longer than eight bytes\"] = 1; }";
	void *arena = kmalloc(ARENA);

	st_provider();
	ST_ASSERT(arena != NULL && dt_compile(src, strlen(src), NULL, arena, ARENA, &prog, &err) == 0);
	for (uint32_t i = 0; i < prog->dp_nvars; i++)
		prog->dp_vars[i].vd_nkeys = 0;           /* the lie */
	dtrace_opts_default(&o);
	o.dov_bufsize = 4096;
	ST_ASSERT(dtrace_open(&o, &state) == 0);
	ST_ASSERT(dtrace_enable(state, prog, NULL, eb, sizeof(eb)) == 0 && dtrace_go(state) == 0);
	fire(10);
	dtrace_status_get(state, &st);
	ST_ASSERT(st.dst_dyndrops == 10);
	dtrace_close(state);
	kfree(arena);
}

SELFTEST(trace_aggregations_exact)
{
	struct st_run r;
	dtrace_optvals_t o;
	struct agg_seen a = { 0, 0, 0 };

	dtrace_opts_default(&o);
	o.dov_bufsize = 4096;
	o.dov_aggsize = 64 * 1024;
	ST_ASSERT(st_start(&r, "selftest:::hit { @c = count(); @s[arg0 % 3] = sum(arg0); }", &o));
	int cpu = fire(100);
	ST_ASSERT(dtrace_agg_snapshot(r.state, cpu, agg_cb, &a) == 0);
	ST_ASSERT(a.entries == 4);                 /* @c, and @s[0], [1], [2] */
	ST_ASSERT(a.count == 100);
	ST_ASSERT(a.sum == 99 * 100 / 2);
	st_end(&r);
}

/* walk_all: every CPU's entries (the kept table comes with CPU 0). */
static void walk_all(dtrace_state_t *s, struct agg_seen *a)
{
	for (int cpu = 0; cpu < dtrace_ncpus(); cpu++)
		dtrace_agg_snapshot(s, cpu, agg_cb, a);
}

/*
 * A buffer that holds only a few entries takes many more keys when it is
 * drained between the firings (aggrate): 200 keys through a buffer of 512
 * bytes (16 entries), 10 new ones between two drains; the kept table has
 * every key once, with exact sums, nothing was dropped, and clear() zeroes
 * the kept values.
 */
SELFTEST(trace_agg_drain_keeps_every_key)
{
	struct st_run r;
	dtrace_optvals_t o;
	dtrace_status_t st;
	struct agg_seen a = { 0, 0, 0 };

	dtrace_opts_default(&o);
	o.dov_bufsize = 4096;
	o.dov_aggsize = 512;                        /* 16 one-word keys of one value */
	ST_ASSERT(st_start(&r, "selftest:::hit { @c = count(); @s[k++] = sum(arg0); }", &o));
	for (int round = 0; round < 20; round++) {
		fire(10);                               /* ten new keys: 320 bytes */
		ST_ASSERT(dtrace_agg_drain(r.state) == 0);
	}
	walk_all(r.state, &a);
	ST_ASSERT(a.entries == 201);                /* @c, and @s[0] .. @s[199] */
	ST_ASSERT(a.count == 200);
	ST_ASSERT(a.sum == 20 * 45);
	dtrace_status_get(r.state, &st);
	for (int cpu = 0; cpu < dtrace_ncpus(); cpu++)
		ST_ASSERT(st.dst_aggdrops[cpu] == 0);
	dtrace_agg_clear(r.state, UINT32_MAX);
	struct agg_seen z = { 0, 0, 0 };
	walk_all(r.state, &z);
	ST_ASSERT(z.entries == 201 && z.count == 0 && z.sum == 0);
	st_end(&r);
}

SELFTEST(trace_dynvar_exhaustion_is_counted)
{
	struct st_run r;
	dtrace_optvals_t o;
	dtrace_status_t st;

	dtrace_opts_default(&o);
	o.dov_bufsize = 4096;
	o.dov_dynvarsize = 4096;                  /* a few dozen entries at most */
	ST_ASSERT(st_start(&r, "selftest:::hit { a[arg0] = arg0 + 1; }", &o));
	fire(1000);
	dtrace_status_get(r.state, &st);
	ST_ASSERT(st.dst_dyndrops > 0 && st.dst_dyndrops < 1000);
	st_end(&r);
}

SELFTEST(trace_deadman_aborts)
{
	struct st_run r;
	dtrace_optvals_t o;
	dtrace_status_t st;

	dtrace_opts_default(&o);
	o.dov_bufsize = 4096;
	o.dov_deadman_ns = o.dov_deadman_user_ns = 50 * NSEC_PER_MSEC;
	ST_ASSERT(st_start(&r, "selftest:::hit { trace(arg0); }", &o));
	thread_sleep_ns(500 * NSEC_PER_MSEC);      /* a consumer that never asks for status */
	dtrace_status_get(r.state, &st);
	ST_ASSERT(st.dst_killed);
	int cpu = fire(5);                          /* a killed consumer records nothing */
	ST_ASSERT(dtrace_buffer_snapshot(r.state, cpu, r.buf, r.bufsize) == 0);
	st_end(&r);
}

/* A consumer that asks for status but reads no data for a while (busy printing) lives. */
SELFTEST(trace_deadman_spares_a_consumer_that_asks)
{
	struct st_run r;
	dtrace_optvals_t o;
	dtrace_status_t st;

	dtrace_opts_default(&o);
	o.dov_bufsize = 4096;
	/* 400 ms: well past the gaps a loaded host leaves between a vCPU's
	 * time slices, well within the 1.2 s the test runs. */
	o.dov_deadman_ns = o.dov_deadman_user_ns = 400 * NSEC_PER_MSEC;
	ST_ASSERT(st_start(&r, "selftest:::hit { trace(arg0); }", &o));
	for (int i = 0; i < 120; i++) {             /* 1.2 s: past a look once a second too */
		dtrace_status_get(r.state, &st);
		thread_sleep_ns(10 * NSEC_PER_MSEC);
	}
	ST_ASSERT(!st.dst_killed);
	st_end(&r);
}

SELFTEST(trace_close_frees_everything)
{
	struct kheap_stats before, after;
	struct st_run r;
	dtrace_optvals_t o;

	dtrace_opts_default(&o);
	o.dov_bufsize = 64 * 1024;
	st_provider();
	kheap_stats(&before);
	ST_ASSERT(st_start(&r, "selftest:::hit { trace(arg0); self->x = arg0; @[probefunc] = count(); }", &o));
	fire(50);
	st_end(&r);
	kheap_stats(&after);
	ST_ASSERT(after.hs_inuse == before.hs_inuse);
}

/* ---- several CPUs (each test also passes, trivially, with one) ---- */

static void fire_xcall(void *arg)
{
	fire((int)(uintptr_t)arg);
}

static void agg_cpu_cb(void *arg, uint32_t aggid, const void *key, uint32_t keylen,
                       const int64_t *vals, uint32_t nvals)
{
	(void)aggid; (void)key; (void)keylen; (void)nvals;
	*(int64_t *)arg += vals[0];
}

SELFTEST(trace_smp_aggregation_merge_exact)
{
	struct st_run r;
	dtrace_optvals_t o;
	int64_t total = 0;

	dtrace_opts_default(&o);
	o.dov_bufsize = 4096;
	o.dov_aggsize = 64 * 1024;
	ST_ASSERT(st_start(&r, "selftest:::hit { @c = count(); }", &o));
	xcall_all(fire_xcall, (void *)(uintptr_t)250);       /* 250 firings on every CPU */
	for (int cpu = 0; cpu < dtrace_ncpus(); cpu++) {
		int64_t mine = 0;
		ST_ASSERT(dtrace_agg_snapshot(r.state, cpu, agg_cpu_cb, &mine) == 0);
		ST_ASSERT(mine == 250);                      /* each CPU counted its own */
		total += mine;
	}
	ST_ASSERT(total == 250 * dtrace_ncpus());
	st_end(&r);
}

SELFTEST(trace_smp_switching_loses_nothing)
{
	struct st_run r;
	dtrace_optvals_t o;
	dtrace_status_t st;
	uint64_t seen = 0, drops = 0;

	dtrace_opts_default(&o);
	o.dov_bufsize = 40 * 16;                    /* small: some rounds drop */
	ST_ASSERT(st_start(&r, "selftest:::hit { trace(arg0); }", &o));
	for (int round = 0; round < 20; round++) {
		xcall_all(fire_xcall, (void *)(uintptr_t)(round * 3));
		for (int cpu = 0; cpu < dtrace_ncpus(); cpu++) {
			long n = dtrace_buffer_snapshot(r.state, cpu, r.buf, r.bufsize);
			seen += (uint64_t)records(r.buf, n, NULL, NULL);
		}
	}
	dtrace_status_get(r.state, &st);
	for (int cpu = 0; cpu < dtrace_ncpus(); cpu++)
		drops += st.dst_drops[cpu];
	uint64_t fired = 0;
	for (int round = 0; round < 20; round++)
		fired += (uint64_t)(round * 3);
	ST_ASSERT(seen + drops == fired * (uint64_t)dtrace_ncpus());
	ST_ASSERT(drops > 0);                       /* the last rounds overflow 40 records */
	st_end(&r);
}

static void spec_fire_xcall(void *arg)
{
	uint64_t flags = arch_irq_save();

	dtrace_probe(st_probe, 1, (uint64_t)arg, 0, 0, 0, 0);   /* arg0 = 1: speculate */
	arch_irq_restore(flags);
}

SELFTEST(trace_smp_commit_across_cpus)
{
	struct st_run r;
	dtrace_optvals_t o;
	int recs = 0;

	dtrace_opts_default(&o);
	o.dov_bufsize = 4096;
	/* arg0 == 0: take a speculation; 1: record into it on this CPU; 2: commit it. */
	ST_ASSERT(st_start(&r,
	    "selftest:::hit /arg0 == 0/ { s = speculation(); }"
	    "selftest:::hit /arg0 == 1/ { speculate(s); trace(arg1); }"
	    "selftest:::hit /arg0 == 2/ { commit(s); }", &o));
	uint64_t flags = arch_irq_save();
	dtrace_probe(st_probe, 0, 0, 0, 0, 0, 0);
	arch_irq_restore(flags);
	xcall_all(spec_fire_xcall, (void *)7);      /* one speculative record per CPU */
	flags = arch_irq_save();
	dtrace_probe(st_probe, 2, 0, 0, 0, 0, 0);
	arch_irq_restore(flags);
	for (int cpu = 0; cpu < dtrace_ncpus(); cpu++) {
		long n = dtrace_buffer_snapshot(r.state, cpu, r.buf, r.bufsize);
		recs += records(r.buf, n, NULL, NULL);
	}
	ST_ASSERT(recs == dtrace_ncpus());          /* every CPU's record, exactly once */
	st_end(&r);
}

/* ---- deactivation: exit() and dtrace_stop ---- */

struct st_fire { int64_t fs_n, fs_arg; };

static void fire_arg_xcall(void *arg)
{
	const struct st_fire *f = arg;
	uint64_t flags = arch_irq_save();

	for (int64_t i = 0; i < f->fs_n; i++)
		dtrace_probe(st_probe, (uint64_t)f->fs_arg, 0, 0, 0, 0, 0);
	arch_irq_restore(flags);
}

/* st_agg_total: every aggregation's value summed over every CPU. */
static int64_t st_agg_total(struct st_run *r)
{
	int64_t total = 0;

	for (int cpu = 0; cpu < dtrace_ncpus(); cpu++)
		dtrace_agg_snapshot(r->state, cpu, agg_cpu_cb, &total);
	return total;
}

/* st_records_of: the records on every CPU whose traced value is v (the buffers are read, so emptied). */
static int st_records_of(struct st_run *r, uint64_t v)
{
	int hits = 0;

	for (int cpu = 0; cpu < dtrace_ncpus(); cpu++) {
		long n = dtrace_buffer_snapshot(r->state, cpu, r->buf, r->bufsize);
		for (long off = 0; off < n;) {
			const dtrace_rechdr_t *h = (const dtrace_rechdr_t *)(r->buf + off);
			uint64_t x;
			if (h->dtrh_size == 0)
				break;
			memcpy(&x, h + 1, 8);
			hits += h->dtrh_epid != 0 && h->dtrh_size >= sizeof(*h) + 8 && x == v;
			off += h->dtrh_size;
		}
	}
	return hits;
}

/*
 * After exit(), no ECB of the state fires on any CPU: not the clauses after
 * exit()'s in the same firing, not a later firing anywhere.  Every CPU
 * fires 100 times (counted twice, traced), one firing calls exit(), then
 * every CPU fires 1000 times more: the counts stay 2 x 100 a CPU, plus the
 * exit firing's first clause, and no record of the later firings exists.
 */
SELFTEST(trace_nothing_fires_after_exit)
{
	struct st_run r;
	dtrace_optvals_t o;
	dtrace_status_t st;
	struct st_fire before = { 100, 1 }, after = { 1000, 500 };
	int64_t ncpu = dtrace_ncpus();

	dtrace_opts_default(&o);
	o.dov_bufsize = 64 * 1024;
	o.dov_aggsize = 64 * 1024;
	ST_ASSERT(st_start(&r, "selftest:::hit { @all = count(); }"
	                       "selftest:::hit /arg0 != 99/ { trace(arg0); }"
	                       "selftest:::hit /arg0 == 99/ { exit(3); }"
	                       "selftest:::hit { @later = count(); }", &o));
	xcall_all(fire_arg_xcall, &before);
	fire_arg_xcall(&(struct st_fire){ 1, 99 });
	dtrace_status_get(r.state, &st);
	ST_ASSERT(st.dst_exited && st.dst_exitstatus == 3);
	ST_ASSERT(st_agg_total(&r) == 2 * 100 * ncpu + 1);     /* @later not in the exit firing */
	ST_ASSERT(st_records_of(&r, 1) == 100 * ncpu);
	xcall_all(fire_arg_xcall, &after);                       /* deactivated: nothing of these */
	ST_ASSERT(st_agg_total(&r) == 2 * 100 * ncpu + 1);
	ST_ASSERT(st_records_of(&r, 500) == 0);
	st_end(&r);
}

/* dtrace_stop disarms the state's probes at once (END fired), not only dtrace_close. */
SELFTEST(trace_stop_disarms_its_probes)
{
	struct st_run r;
	dtrace_optvals_t o;

	dtrace_opts_default(&o);
	o.dov_bufsize = 4096;
	o.dov_aggsize = 64 * 1024;
	ST_ASSERT(st_start(&r, "selftest:::hit { @c = count(); } END { @e = count(); }", &o));
	ST_ASSERT(st_enabled == 1);
	fire(10);
	dtrace_stop(r.state);
	ST_ASSERT(st_enabled == 0);
	ST_ASSERT(st_agg_total(&r) == 10 + 1);                   /* END fired before the disarm */
	fire(10);
	ST_ASSERT(st_agg_total(&r) == 10 + 1);
	dtrace_stop(r.state);                                    /* idempotent */
	st_end(&r);
	ST_ASSERT(st_enabled == 0);
}
