/*
 * stress_selftest.c - the SMP stress campaign, as in-kernel self-tests.
 *
 * Each test drives the framework's consumer interface (trace/dtrace.h)
 * with programs compiled by the in-kernel D compiler, many consumers in a
 * row, while the workloads (spin, churn, pingpong) run and "firer" threads,
 * one bound to each CPU, fire two probes whose firings they count: the
 * test provider's stress:kernel:stress:hit and the static site
 * sdt:kernel:stress_sdt_fire:stress-hit.  Each test asserts:
 *
 *   liveness  every consumer opened is closed (a hang stops the run: the
 *             last "# stress:" line says where it was);
 *   exactness where the totals are knowable: records + drops = firings,
 *             count() = firings, per-thread and per-CPU variables read back
 *             what the same firing stored unless that store was a counted
 *             drop, committed speculations hold only committed data;
 *   no leak   free physical memory and the kernel heap's bytes in use are
 *             back to their starting values once the test's consumers are
 *             closed and its threads joined.
 *
 * The tests are opt-in (SELFTEST_OPTIN): they run only when named on the
 * command line, as `make stress-check` (short, part of `make check`) and
 * `make stress` (long) do:
 *
 *   selftest=stress_*        which tests
 *   stress.ms=N              how long each test's busy phase lasts (default 300)
 *   stress.areas=a,b,...     only these areas (default: all)
 *   stress.skip=a,b,...      all but these
 *
 * Areas: exact, storm, fbt (fbt probes in the storm), dynvar, agg, spec,
 * close.  A test whose area is off prints "# stress: ... skipped" and passes.
 *
 * Context: thread context; the firers fire with interrupts off on their CPU.
 */
#include "arch/arch.h"
#include "dlang/dt_prog.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/sdt.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"
#include "trace/dtrace.h"
#include "console/workloads/workload.h"

#define STRESS_ARENA   (512UL << 10)
#define STRESS_BATCH   64              /* firings between two looks at the clock */

/* ---- areas and parameters ---- */

enum stress_area {
	STRESS_EXACT = 1 << 0, STRESS_STORM = 1 << 1, STRESS_FBT = 1 << 2, STRESS_DYNVAR = 1 << 3,
	STRESS_AGG = 1 << 4, STRESS_SPEC = 1 << 5, STRESS_CLOSE = 1 << 6,
};

static const struct { const char *name; unsigned bit; } stress_areas[] = {
	{ "exact", STRESS_EXACT }, { "storm", STRESS_STORM }, { "fbt", STRESS_FBT },
	{ "dynvar", STRESS_DYNVAR }, { "agg", STRESS_AGG }, { "spec", STRESS_SPEC },
	{ "close", STRESS_CLOSE },
};

/* areas_parse: the bits of a comma-separated list of area names. */
static unsigned areas_parse(const char *list)
{
	unsigned bits = 0;

	for (const char *p = list; *p;) {
		const char *e = p;
		while (*e && *e != ',')
			e++;
		for (size_t i = 0; i < ARRAY_SIZE(stress_areas); i++)
			if (strlen(stress_areas[i].name) == (size_t)(e - p) &&
			    strncmp(stress_areas[i].name, p, (size_t)(e - p)) == 0)
				bits |= stress_areas[i].bit;
		p = *e ? e + 1 : e;
	}
	return bits;
}

static bool stress_on(unsigned area, const char *test)
{
	char list[128];
	unsigned bits = ~0u;

	if (selftest_param_str("stress.areas", list, sizeof(list)))
		bits = areas_parse(list);
	if (selftest_param_str("stress.skip", list, sizeof(list)))
		bits &= ~areas_parse(list);
	if ((bits & area) == 0)
		kprintf("# stress: %s skipped (area off)\n", test);
	return (bits & area) != 0;
}

static uint64_t stress_ns(void)
{
	return selftest_param("stress.ms", 300) * NSEC_PER_MSEC;
}

/* ---- the probes the firers fire ---- */

static dtrace_id_t stress_probe;

static int stress_enable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg; (void)id; (void)parg;
	return 0;
}

static void stress_disable(void *arg, dtrace_id_t id, void *parg)
{
	(void)arg; (void)id; (void)parg;
}

static const dtrace_pops_t stress_ops = { .dtps_enable = stress_enable,
                                          .dtps_disable = stress_disable };

static void stress_provider(void)
{
	if (stress_probe == 0) {
		dtrace_provider_t *p = dtrace_register("stress", &stress_ops, NULL);
		if (p != NULL)
			stress_probe = dtrace_probe_create(p, "kernel", "stress", "hit", 0, NULL);
	}
}

/* stress_sdt_fire: the static site sdt:kernel:stress_sdt_fire:stress-hit. */
static __attribute__((noinline)) void stress_sdt_fire(uint64_t cpu, uint64_t seq)
{
	DTRACE_PROBE2(stress__hit, cpu, seq);
}

/* ---- firers: one thread bound to each CPU, counting what it fires ---- */

struct firer {
	int fr_cpu;
	uint64_t fr_limit;                   /* firings of each probe to do; 0: until the deadline */
	uint64_t fr_deadline;                /* ktime */
	bool fr_sdt;                         /* fire the sdt site too */
	uint64_t fr_fired;                   /* stress:::hit firings (arg1 = 1, 2, ...) */
	uint64_t fr_sdt_fired;
	uint64_t fr_tid;
};

static bool firer_done(const struct firer *f)
{
	return f->fr_limit ? f->fr_fired >= f->fr_limit : ktime_ns() >= f->fr_deadline;
}

static void firer_main(void *arg)
{
	struct firer *f = arg;

	thread_bind(f->fr_cpu);
	do {                                 /* at least one batch, however late it starts */
		for (int i = 0; i < STRESS_BATCH && !(f->fr_limit && f->fr_fired >= f->fr_limit); i++) {
			uint64_t seq = ++f->fr_fired;
			dtrace_probe(stress_probe, (uint64_t)f->fr_cpu, seq, 0, 0, 0, 0);
			if (f->fr_sdt) {
				stress_sdt_fire((uint64_t)f->fr_cpu, seq);
				f->fr_sdt_fired++;
			}
		}
		thread_yield();
	} while (!firer_done(f));
}

struct firers {
	struct firer fs[MAX_CPUS];
	int n;
};

/* firers_start: one firer per CPU, for limit firings each (0: for ns). */
static void firers_start(struct firers *fs, uint64_t limit, uint64_t ns, bool sdt)
{
	uint64_t deadline = ktime_ns() + ns;

	fs->n = ncpus;
	for (int i = 0; i < fs->n; i++) {
		fs->fs[i] = (struct firer){ .fr_cpu = i, .fr_limit = limit, .fr_deadline = deadline,
		                            .fr_sdt = sdt };
		fs->fs[i].fr_tid = thread_spawn("st-firer", firer_main, &fs->fs[i]);
	}
}

/* firers_fired: stress:::hit firings so far (a racy sum, for progress only). */
static uint64_t firers_fired(const struct firers *fs)
{
	uint64_t n = 0;

	for (int i = 0; i < fs->n; i++)
		n += __atomic_load_n(&fs->fs[i].fr_fired, __ATOMIC_RELAXED);
	return n;
}

/* firers_join: wait for them; returns the stress:::hit firings in all. */
static uint64_t firers_join(struct firers *fs, uint64_t *sdt)
{
	uint64_t n = 0, s = 0;

	for (int i = 0; i < fs->n; i++) {
		if (fs->fs[i].fr_tid != 0)
			thread_join(fs->fs[i].fr_tid);
		n += fs->fs[i].fr_fired;
		s += fs->fs[i].fr_sdt_fired;
	}
	if (sdt != NULL)
		*sdt = s;
	return n;
}

/* ---- the workloads, running underneath every test ---- */

struct background {
	uint64_t bg_tids[3];
};

static void background_start(struct background *bg)
{
	static const char *const names[] = { "spin", "churn", "pingpong" };
	struct wl_params p = { 0, false };           /* until killed */

	for (int i = 0; i < 3; i++) {
		const struct workload *w = wl_find(names[i]);
		bg->bg_tids[i] = w ? wl_spawn(w, &p) : 0;
	}
}

static void background_stop(struct background *bg)
{
	for (int i = 0; i < 3; i++)
		if (bg->bg_tids[i] != 0 && thread_kill(bg->bg_tids[i]))
			thread_join(bg->bg_tids[i]);
}

/* ---- memory: the no-leak check ---- */

/*
 * The heap counts every page it holds (hs_pages: slab and large pages, its
 * page tables, its arena's tags, what waits in its quarantine), so "free"
 * is the free list's bytes plus the heap's pages: what a leak of pages
 * (buffers, stacks) lowers, while the heap's caching does not.  A freed
 * range waits for a TLB epoch (a few ticks) before it is reused
 * (kernel/kheap.c): memmark_back waits for that.
 */
struct memmark {
	uint64_t mm_free;                    /* pmem bytes free + kheap pages held */
	uint64_t mm_inuse;                   /* kheap bytes in use */
};

static void memmark_take(struct memmark *m)
{
	struct pmem_stats ps;
	struct kheap_stats hs;

	pmem_stats(&ps);
	kheap_stats(&hs);
	*m = (struct memmark){ ps.ps_free + hs.hs_pages * PAGE_SIZE, hs.hs_inuse };
}

/* memmark_back: has memory come back to m?  Waits up to a second for late reaping. */
static bool memmark_back(const struct memmark *m)
{
	struct memmark now;

	for (int i = 0; i < 20; i++) {
		memmark_take(&now);
		if (now.mm_inuse == m->mm_inuse && now.mm_free >= m->mm_free) {
			kprintf("# stress: memory back (heap in use %lu bytes)\n", now.mm_inuse);
			return true;
		}
		thread_sleep_ns(50 * NSEC_PER_MSEC);
	}
	kprintf("# stress: leak: free %lu -> %lu, kheap in use %lu -> %lu\n", m->mm_free,
	        now.mm_free, m->mm_inuse, now.mm_inuse);
	return false;
}

/* ---- consumers ---- */

struct consumer {
	void *sc_arena;
	dt_prog *sc_prog;
	dtrace_state_t *sc_state;
	uint8_t *sc_buf;
	size_t sc_bufsize;
	uint64_t sc_records;                 /* non-void records drained so far */
	uint64_t sc_errors;                  /* error records drained */
	uint64_t sc_sum1;                    /* sum of each record's first word */
};

static void stress_opts(dtrace_optvals_t *o)
{
	dtrace_opts_default(o);
	o->dov_bufsize = 16 * 1024;
	o->dov_aggsize = 256 * 1024;
	o->dov_dynvarsize = 256 * 1024;
}

/* consumer_open: compile src, open, enable, go; false (and nothing held) on failure. */
static bool consumer_open(struct consumer *c, const char *src, const dtrace_optvals_t *o)
{
	dt_error err;
	char eb[160];
	int rc;

	*c = (struct consumer){ 0 };
	stress_provider();
	c->sc_arena = kmalloc(STRESS_ARENA);
	c->sc_bufsize = o->dov_bufsize;
	c->sc_buf = kmalloc(c->sc_bufsize);
	if (c->sc_arena == NULL || c->sc_buf == NULL ||
	    dt_compile(src, strlen(src), NULL, c->sc_arena, STRESS_ARENA, &c->sc_prog, &err) != 0) {
		kprintf("# stress: compile '%s': %s\n", src, c->sc_arena ? err.de_msg : "no memory");
		goto fail;
	}
	if ((rc = dtrace_open(o, &c->sc_state)) != 0)
		goto fail;
	eb[0] = 0;
	if ((rc = dtrace_enable(c->sc_state, c->sc_prog, NULL, eb, sizeof(eb))) != 0 ||
	    (rc = dtrace_go(c->sc_state)) != 0) {
		kprintf("# stress: enable '%s': %s %s\n", src, dtrace_errmsg(rc), eb);
		goto fail;
	}
	return true;
fail:
	dtrace_close(c->sc_state);
	kfree(c->sc_arena);
	kfree(c->sc_buf);
	*c = (struct consumer){ 0 };
	return false;
}

/* consumer_count: tally the records of buf. */
static void consumer_count(struct consumer *c, const uint8_t *buf, long len)
{
	for (long off = 0; off + (long)sizeof(dtrace_rechdr_t) <= len;) {
		const dtrace_rechdr_t *h = (const dtrace_rechdr_t *)(buf + off);
		if (h->dtrh_size < sizeof(*h))
			break;
		if (h->dtrh_epid == DTRACE_EPID_ERROR) {
			c->sc_errors++;
		} else if (h->dtrh_epid != 0) {
			c->sc_records++;
			if (h->dtrh_size >= sizeof(*h) + 8) {
				uint64_t v;
				memcpy(&v, h + 1, 8);
				c->sc_sum1 += v;
			}
		}
		off += h->dtrh_size;
	}
}

/* consumer_drain: snapshot every CPU's buffer (until empty) and count. */
static void consumer_drain(struct consumer *c)
{
	for (int cpu = 0; cpu < ncpus; cpu++) {
		long n;
		for (int rounds = 0; rounds < 4; rounds++) {
			n = dtrace_buffer_snapshot(c->sc_state, cpu, c->sc_buf, c->sc_bufsize);
			if (n <= 0)
				break;
			consumer_count(c, c->sc_buf, n);
		}
	}
}

static uint64_t consumer_drops(struct consumer *c, dtrace_status_t *st)
{
	uint64_t d = 0;

	dtrace_status_get(c->sc_state, st);
	for (int cpu = 0; cpu < ncpus && cpu < MAX_CPUS; cpu++)
		d += st->dst_drops[cpu];
	return d;
}

static void consumer_close(struct consumer *c)
{
	dtrace_close(c->sc_state);
	kfree(c->sc_arena);
	kfree(c->sc_buf);
	*c = (struct consumer){ 0 };
}

/* consumer_run: open src, keep draining for ns (firings come from elsewhere), stop, close. */
static bool consumer_run(const char *src, uint64_t ns, struct consumer *out)
{
	dtrace_optvals_t o;
	struct consumer c;
	uint64_t end = ktime_ns() + ns;

	stress_opts(&o);
	if (!consumer_open(&c, src, &o))
		return false;
	do {
		thread_sleep_ns(2 * NSEC_PER_MSEC);
		consumer_drain(&c);
	} while (ktime_ns() < end);
	dtrace_stop(c.sc_state);
	consumer_drain(&c);
	if (out != NULL)
		*out = c;
	consumer_close(&c);
	return true;
}

/* ---- aggregation readers ---- */

struct aggsum {
	int64_t as_vals[4];                  /* the first value word of aggregations 0..3, summed */
	uint64_t as_entries;
};

static void aggsum_cb(void *arg, uint32_t aggid, const void *key, uint32_t keylen,
                      const int64_t *vals, uint32_t nvals)
{
	struct aggsum *a = arg;

	(void)key; (void)keylen;
	a->as_entries++;
	if (aggid < 4 && nvals > 0)
		a->as_vals[aggid] += vals[0];
}

static void aggsum_take(struct consumer *c, struct aggsum *a)
{
	*a = (struct aggsum){ { 0 }, 0 };
	for (int cpu = 0; cpu < ncpus; cpu++)
		dtrace_agg_snapshot(c->sc_state, cpu, aggsum_cb, a);
}

static uint64_t aggdrops(const dtrace_status_t *st)
{
	uint64_t d = 0;

	for (int cpu = 0; cpu < ncpus && cpu < MAX_CPUS; cpu++)
		d += st->dst_aggdrops[cpu];
	return d;
}

/* ---- a test's frame: warm-up, memory mark, workloads, and the check at the end ---- */

struct frame {
	struct memmark fm_mark;
	struct background fm_bg;
};

static void frame_begin(struct frame *f, const char *what)
{
	kprintf("# stress: %s on %d CPUs, %lu ms\n", what, ncpus, stress_ns() / NSEC_PER_MSEC);
	memmark_take(&f->fm_mark);
	background_start(&f->fm_bg);
}

static bool frame_end(struct frame *f)
{
	background_stop(&f->fm_bg);
	return memmark_back(&f->fm_mark);
}

/* ---- exact totals ---- */

/*
 * Records + drops = firings: every firing of stress:::hit and of the sdt
 * site writes one record or counts one drop (a small buffer, drained while
 * the firers run on every CPU), and count() sees every firing.
 */
static void exact_round(struct selftest_ctx *st_ctx, uint64_t per_cpu)
{
	static const char src[] =
	    "stress:::hit { trace(arg1); } sdt:::stress-hit { trace(arg1); }"
	    "stress:::hit { @hit = count(); } sdt:::stress-hit { @sdt = count(); }";
	dtrace_optvals_t o;
	dtrace_status_t st;
	struct consumer c;
	struct firers fs;
	struct aggsum a;
	uint64_t sdt;

	stress_opts(&o);
	o.dov_bufsize = 4096;                /* small: some switches drop */
	ST_ASSERT(consumer_open(&c, src, &o));
	if (c.sc_state == NULL)
		return;
	firers_start(&fs, per_cpu, 0, true);
	while (firers_fired(&fs) < per_cpu * (uint64_t)fs.n) {   /* drain while they fire */
		thread_sleep_ns(NSEC_PER_MSEC);
		consumer_drain(&c);
	}
	uint64_t fired = firers_join(&fs, &sdt);
	consumer_drain(&c);
	uint64_t drops = consumer_drops(&c, &st);
	aggsum_take(&c, &a);
	kprintf("# stress: exact: %lu + %lu firings, %lu records, %lu drops, %lu re-entries\n",
	        fired, sdt, c.sc_records, drops, st.dst_reentries);
	ST_ASSERT(fired == per_cpu * (uint64_t)ncpus && sdt == fired);
	ST_ASSERT(c.sc_records + drops == fired + sdt);
	ST_ASSERT(c.sc_errors == 0 && st.dst_errors == 0);
	ST_ASSERT(aggdrops(&st) == 0);
	ST_ASSERT(a.as_vals[0] == (int64_t)fired && a.as_vals[1] == (int64_t)sdt);
	consumer_close(&c);
}

SELFTEST_OPTIN(stress_exact_records_plus_drops)
{
	struct frame f;
	uint64_t end;
	int rounds = 0;

	if (!stress_on(STRESS_EXACT, "exact"))
		return;
	exact_round(st_ctx, 10);             /* warm-up: the probes and their first allocations */
	frame_begin(&f, "exact totals");
	end = ktime_ns() + stress_ns();
	do
		exact_round(st_ctx, 2000);
	while (ktime_ns() < end && ++rounds < 1000 && st_ctx->st_failed == 0);
	ST_ASSERT(frame_end(&f));
}

/* ---- enable/disable storms of every probe kind ---- */

static const char *const storm_progs[] = {
	"BEGIN { trace(1); } END { trace(2); }",
	"stress:::hit { trace(arg1); }",
	"sdt:::stress-hit { @[cpu] = count(); }",
	"sdt:::kmem-alloc { @ = count(); } sdt:::kmem-free { @f = sum(arg1); }",
	"sched:::on-cpu { @[cpu] = count(); } sched:::off-cpu { trace(cpu); }",
	"sched:::enqueue, sched:::wakeup { @ = count(); }",
	"profile-997 { @[cpu] = count(); }",
	"tick-1000hz { trace(timestamp); }",
	"profile-4999 { @q = quantize(arg0 & 0xff); }",
	"lockstat:::spin-acquire { @[arg0] = count(); }",
	"lockstat:::adaptive-acquire, lockstat:::adaptive-release { @ = count(); }",
	"lockstat:::adaptive-block { @ = sum(arg1); }",
	"sysinfo:::xcalls { @ = count(); }",
};

static const char *const storm_fbt_progs[] = {
	"fbt::kmalloc:entry { @[cpu] = count(); } fbt::kmalloc:return { trace(arg1); }",
	"fbt::kfree:entry, fbt::kfree:return { @ = count(); }",
	"fbt::thread_yield:entry { @[cpu] = count(); }",
	"fbt::wl_*:entry { @[probefunc] = count(); }",
	"fbt:::return { @ = count(); }",
	"fbt::: { @[cpu] = count(); }",             /* every probe at once, under load */
};

/* storm_one: one consumer of src, briefly; BEGIN and END each record exactly once. */
static bool storm_one(struct selftest_ctx *st_ctx, const char *src)
{
	struct consumer c;

	if (!consumer_run(src, 3 * NSEC_PER_MSEC, &c))
		return false;
	if (strncmp(src, "BEGIN", 5) == 0) {
		ST_ASSERT(c.sc_records == 2 && c.sc_sum1 == 3);
	}
	return true;
}

struct storm_arg {
	struct selftest_ctx *sa_ctx;
	bool sa_fbt;
	uint64_t sa_deadline;
	uint64_t sa_consumers;               /* opened and closed */
	uint64_t sa_failed;
	unsigned sa_seed;
};

static void storm_main(void *arg)
{
	struct storm_arg *sa = arg;
	struct selftest_ctx *st_ctx = sa->sa_ctx;
	size_t n = ARRAY_SIZE(storm_progs), nf = sa->sa_fbt ? ARRAY_SIZE(storm_fbt_progs) : 0;
	unsigned i = sa->sa_seed;

	do {
		size_t k = i++ % (n + nf);
		const char *src = k < n ? storm_progs[k] : storm_fbt_progs[k - n];
		if (storm_one(st_ctx, src))
			sa->sa_consumers++;
		else
			sa->sa_failed++;
	} while (ktime_ns() < sa->sa_deadline || i - sa->sa_seed < (n + nf + 1) / 2);
}

/*
 * Two storm threads open and close consumers of every probe kind in turn
 * (each its half of the list at least once, more until the time is up), concurrently,
 * while the firers and the workloads run on every CPU.
 */
SELFTEST_OPTIN(stress_storm_every_probe_kind)
{
	struct storm_arg sa[2];
	struct firers fs;
	struct frame f;
	bool fbt;

	if (!stress_on(STRESS_STORM, "storm"))
		return;
	fbt = stress_on(STRESS_FBT, "storm's fbt probes");
	stress_provider();
	for (size_t k = 0; k < ARRAY_SIZE(storm_progs); k++)      /* warm-up: providers' probes */
		storm_one(st_ctx, storm_progs[k]);
	for (size_t k = 0; fbt && k < ARRAY_SIZE(storm_fbt_progs); k++)
		storm_one(st_ctx, storm_fbt_progs[k]);
	frame_begin(&f, fbt ? "storm (with fbt)" : "storm (no fbt)");
	firers_start(&fs, 0, stress_ns(), true);
	uint64_t tids[2];
	size_t half = (ARRAY_SIZE(storm_progs) + (fbt ? ARRAY_SIZE(storm_fbt_progs) : 0) + 1) / 2;
	for (int i = 0; i < 2; i++) {           /* the two halves of the list: each program at least once */
		sa[i] = (struct storm_arg){ st_ctx, fbt, ktime_ns() + stress_ns(), 0, 0,
		                            (unsigned)(i * half) };
		tids[i] = thread_spawn("st-storm", storm_main, &sa[i]);
	}
	for (int i = 0; i < 2; i++)
		if (tids[i] != 0)
			thread_join(tids[i]);
	firers_join(&fs, NULL);
	kprintf("# stress: storm: %lu consumers opened and closed, %lu failed to open\n",
	        sa[0].sa_consumers + sa[1].sa_consumers, sa[0].sa_failed + sa[1].sa_failed);
	ST_ASSERT(sa[0].sa_failed + sa[1].sa_failed == 0);
	ST_ASSERT(sa[0].sa_consumers > 0 && sa[1].sa_consumers > 0);
	ST_ASSERT(frame_end(&f));
}

/* ---- dynamic variables ---- */

/*
 * Each firing stores a thread-local and a per-CPU associative-array element,
 * reads them back in the next clause of the same firing, and deletes them:
 * a read-back that differs is corruption, unless the store was dropped (and
 * counted).  So ok <= firings and ok + drops >= firings, for each.
 */
static void dynvar_round(struct selftest_ctx *st_ctx, uint64_t ns)
{
	static const char src[] =
	    "stress:::hit { self->v = arg1; a[cpu, arg1 & 7] = arg1; }"
	    "stress:::hit /self->v == arg1/ { @tls = count(); }"
	    "stress:::hit /a[cpu, arg1 & 7] == arg1/ { @arr = count(); }"
	    "stress:::hit { self->v = 0; a[cpu, arg1 & 7] = 0; }"
	    "stress:::hit { @all = count(); }";
	dtrace_optvals_t o;
	dtrace_status_t st;
	struct consumer c;
	struct firers fs;
	struct aggsum a;

	stress_opts(&o);
	ST_ASSERT(consumer_open(&c, src, &o));
	if (c.sc_state == NULL)
		return;
	firers_start(&fs, 0, ns, false);
	uint64_t fired = firers_join(&fs, NULL);
	dtrace_stop(c.sc_state);
	dtrace_status_get(c.sc_state, &st);
	aggsum_take(&c, &a);
	/* every kind of drop: plain, and with deleted entries waiting for the cleaner */
	int64_t drops = (int64_t)(st.dst_dyndrops + st.dst_dyndirty + st.dst_dynrinse);
	kprintf("# stress: dynvar: %lu firings, tls ok %ld, array ok %ld, %lu drops "
	        "(%lu with non-empty dirty list, %lu with non-empty rinsing list)\n", fired,
	        a.as_vals[0], a.as_vals[1], st.dst_dyndrops, st.dst_dyndirty, st.dst_dynrinse);
	ST_ASSERT(a.as_vals[2] == (int64_t)fired);
	ST_ASSERT(a.as_vals[0] <= (int64_t)fired && a.as_vals[1] <= (int64_t)fired);
	ST_ASSERT(a.as_vals[0] + drops >= (int64_t)fired);
	ST_ASSERT(a.as_vals[1] + drops >= (int64_t)fired);
	ST_ASSERT(st.dst_errors == 0);
	consumer_close(&c);
}

SELFTEST_OPTIN(stress_dynvar_churn)
{
	struct frame f;

	if (!stress_on(STRESS_DYNVAR, "dynvar"))
		return;
	dynvar_round(st_ctx, 10 * NSEC_PER_MSEC);
	frame_begin(&f, "dynamic-variable churn");
	dynvar_round(st_ctx, stress_ns());
	ST_ASSERT(frame_end(&f));
}

/* ---- aggregations ---- */

/*
 * While the firers run, the consumer snapshots, clears and removes entries
 * of aggregations with many keys (liveness only: values being cleared
 * under the firers are not knowable); then, cleared and with a known number
 * of firings, the totals are exact.
 */
static void agg_churn_phase(struct consumer *c, uint64_t ns)
{
	struct firers fs;
	struct aggsum a;
	int64_t key = 0;
	int i = 0;

	firers_start(&fs, 0, ns, false);
	do {
		thread_sleep_ns(NSEC_PER_MSEC);
		aggsum_take(c, &a);
		if (i % 3 == 0)
			dtrace_agg_clear(c->sc_state, UINT32_MAX);
		else if (i % 3 == 1)
			dtrace_agg_remove(c->sc_state, 0, &key, sizeof(key));
		key = (key + 1) & 511;
		i++;
	} while (ktime_ns() < fs.fs[0].fr_deadline);
	firers_join(&fs, NULL);
}

static void agg_round(struct selftest_ctx *st_ctx, uint64_t ns)
{
	static const char src[] =
	    "stress:::hit { @c[arg1 & 511] = count(); @s = sum(1); @m = max(arg1);"
	    " @q[arg0] = quantize(arg1); }";
	dtrace_optvals_t o;
	dtrace_status_t st;
	struct consumer c;
	struct firers fs;
	struct aggsum a;

	stress_opts(&o);
	o.dov_aggsize = 1024 * 1024;
	ST_ASSERT(consumer_open(&c, src, &o));
	if (c.sc_state == NULL)
		return;
	agg_churn_phase(&c, ns);
	dtrace_agg_clear(c.sc_state, UINT32_MAX);
	firers_start(&fs, 1000, 0, false);
	uint64_t fired = firers_join(&fs, NULL);
	aggsum_take(&c, &a);
	dtrace_status_get(c.sc_state, &st);
	kprintf("# stress: agg: %lu firings after the clear, count %ld, sum %ld\n", fired,
	        a.as_vals[0], a.as_vals[1]);
	ST_ASSERT(aggdrops(&st) == 0);
	ST_ASSERT(a.as_vals[0] == (int64_t)fired && a.as_vals[1] == (int64_t)fired);
	consumer_close(&c);
}

SELFTEST_OPTIN(stress_aggregation_churn)
{
	struct frame f;

	if (!stress_on(STRESS_AGG, "agg"))
		return;
	agg_round(st_ctx, 10 * NSEC_PER_MSEC);
	frame_begin(&f, "aggregation churn");
	agg_round(st_ctx, stress_ns());
	ST_ASSERT(frame_end(&f));
}

/* ---- speculations ---- */

/*
 * Every firing takes a speculation, records arg1 in it, and commits it if
 * arg1 is odd, discards it if even: committed records hold only odd values,
 * and there are no more of them than odd firings.
 */
struct spec_seen {
	uint64_t ss_records, ss_even;
};

static void spec_count(struct spec_seen *s, const uint8_t *buf, long len)
{
	for (long off = 0; off + (long)sizeof(dtrace_rechdr_t) <= len;) {
		const dtrace_rechdr_t *h = (const dtrace_rechdr_t *)(buf + off);
		if (h->dtrh_size < sizeof(*h))
			break;
		if (h->dtrh_epid != 0 && h->dtrh_epid != DTRACE_EPID_ERROR &&
		    h->dtrh_size >= sizeof(*h) + 8) {
			uint64_t v;
			memcpy(&v, h + 1, 8);
			s->ss_records++;
			s->ss_even += (v & 1) == 0;
		}
		off += h->dtrh_size;
	}
}

static void spec_drain(struct consumer *c, struct spec_seen *s)
{
	for (int cpu = 0; cpu < ncpus; cpu++) {
		long n = dtrace_buffer_snapshot(c->sc_state, cpu, c->sc_buf, c->sc_bufsize);
		if (n > 0)
			spec_count(s, c->sc_buf, n);
	}
}

static void spec_round(struct selftest_ctx *st_ctx, uint64_t ns)
{
	static const char src[] =
	    "stress:::hit { this->s = speculation(); }"
	    "stress:::hit /this->s/ { speculate(this->s); trace(arg1); }"
	    "stress:::hit /this->s && (arg1 & 1)/ { commit(this->s); }"
	    "stress:::hit /this->s && !(arg1 & 1)/ { discard(this->s); }";
	dtrace_optvals_t o;
	dtrace_status_t st;
	struct consumer c;
	struct firers fs;
	struct spec_seen s = { 0, 0 };

	stress_opts(&o);
	o.dov_nspec = 8;
	o.dov_specsize = 4096;
	ST_ASSERT(consumer_open(&c, src, &o));
	if (c.sc_state == NULL)
		return;
	firers_start(&fs, 0, ns, false);
	do {
		thread_sleep_ns(NSEC_PER_MSEC);
		spec_drain(&c, &s);
	} while (ktime_ns() < fs.fs[0].fr_deadline);
	uint64_t fired = firers_join(&fs, NULL);
	for (int i = 0; i < 5; i++) {
		thread_sleep_ns(10 * NSEC_PER_MSEC);   /* commits other CPUs still owe */
		spec_drain(&c, &s);
	}
	dtrace_status_get(c.sc_state, &st);
	kprintf("# stress: spec: %lu firings, %lu committed records, %lu unavailable, %lu busy\n",
	        fired, s.ss_records, st.dst_specunavail, st.dst_specbusy);
	ST_ASSERT(s.ss_even == 0);
	ST_ASSERT(s.ss_records <= (fired + 1) / 2 + 1);
	ST_ASSERT(s.ss_records > 0);
	ST_ASSERT(st.dst_errors == 0);
	consumer_close(&c);
}

SELFTEST_OPTIN(stress_speculation_churn)
{
	struct frame f;

	if (!stress_on(STRESS_SPEC, "spec"))
		return;
	spec_round(st_ctx, 10 * NSEC_PER_MSEC);
	frame_begin(&f, "speculation churn");
	spec_round(st_ctx, stress_ns());
	ST_ASSERT(frame_end(&f));
}

/* ---- consumer open/close races ---- */

/*
 * close_one: open src, let it record for ns without giving up the CPU (a
 * sleep would wait behind the firer and the workloads), drain once, close.
 */
static bool close_one(const char *src, uint64_t ns)
{
	dtrace_optvals_t o;
	struct consumer c;
	uint64_t end;

	stress_opts(&o);
	if (!consumer_open(&c, src, &o))
		return false;
	end = ktime_ns() + ns;
	while (ktime_ns() < end)
		arch_cpu_relax();
	consumer_drain(&c);
	consumer_close(&c);
	return true;
}

/*
 * Consumers of the probes the firers fire on every CPU are opened and
 * closed as fast as possible (after 0, 100 or 200 us), so closes land while
 * other CPUs are inside dtrace_probe() on the same ECB chains.
 */
SELFTEST_OPTIN(stress_close_while_firing)
{
	static const char *const progs[] = {
		"stress:::hit { trace(arg1); @[cpu] = count(); }",
		"sdt:::stress-hit { trace(arg0); } stress:::hit { @ = sum(arg1); }",
		"stress:::hit /arg1 & 1/ { trace(arg1); } stress:::hit { @q = quantize(arg1); }",
	};
	struct firers fs;
	struct frame f;
	uint64_t n = 0, end;

	if (!stress_on(STRESS_CLOSE, "close"))
		return;
	for (size_t k = 0; k < ARRAY_SIZE(progs); k++)
		ST_ASSERT(consumer_run(progs[k], 0, NULL));
	frame_begin(&f, "open/close races");
	firers_start(&fs, 0, stress_ns(), true);
	end = ktime_ns() + stress_ns();
	do {
		ST_ASSERT(close_one(progs[n % ARRAY_SIZE(progs)], (n % 3) * 100 * NSEC_PER_USEC));
		n++;
	} while (ktime_ns() < end && st_ctx->st_failed == 0);
	firers_join(&fs, NULL);
	kprintf("# stress: close: %lu consumers opened and closed under fire\n", n);
	ST_ASSERT(frame_end(&f));
}
