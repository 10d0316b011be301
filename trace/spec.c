/*
 * spec.c - speculative tracing.
 *
 * speculation() hands out one of nspec speculative buffers (ids from 1; 0
 * when none is free, counted as a failed speculation).  speculate(id) sends
 * the rest of its clause's record into that speculation's buffer on the
 * firing CPU instead of the principal buffer.  commit(id) moves the
 * buffers' records into the principal buffers (each CPU's into its own, in
 * the order they were recorded); discard(id) throws them away; either way
 * the speculation is free again once every CPU holding its data is done.
 * A full speculative buffer drops the record ("speculative drops").
 *
 * The states are DTrace's.  One word holds the state and, for ACTIVEONE,
 * the CPU that has the data, so that a single compare-and-swap moves it:
 *
 *   INACTIVE        free; speculation() takes it (-> ACTIVE)
 *   ACTIVE          handed out, nothing recorded yet
 *   ACTIVEONE       records on one CPU only (the word names it)
 *   ACTIVEMANY      records on several CPUs
 *   COMMITTING      a commit on the CPU that holds all the data: that CPU
 *                   moves them at once, in the same firing, then INACTIVE
 *   COMMITTINGMANY  a commit whose data other CPUs hold: every CPU moves
 *                   its own records when its cleaner next runs
 *   DISCARDING      the same for discard (and, briefly, a local discard)
 *
 *   speculate: ACTIVE -> ACTIVEONE(me);  ACTIVEONE(other) -> ACTIVEMANY;
 *              ACTIVEONE(me), ACTIVEMANY: record;  any other state: drop.
 *   commit:    ACTIVE -> INACTIVE;  ACTIVEONE(me) -> COMMITTING -> INACTIVE;
 *              ACTIVEONE(other), ACTIVEMANY -> COMMITTINGMANY.
 *   discard:   ACTIVEONE(me) -> INACTIVE;  ACTIVE, ACTIVEONE(other),
 *              ACTIVEMANY -> DISCARDING.  As in DTrace, a discard of a
 *              speculation nothing was speculated to is not immediate:
 *              the buffer is busy until the cleaner runs, so a
 *              speculation() in the same firing fails as "busy".
 *
 * The cleaner is a cyclic on every CPU at the cleanrate option (DTrace's
 * default, 101 Hz), started only for programs that speculate.  On its CPU,
 * with interrupts off, it moves (or drops) that CPU's records of every
 * COMMITTINGMANY or DISCARDING speculation and sets the CPU's bit in
 * dsp_cleaned; the CPU that completes the mask makes it INACTIVE.  A
 * speculation() that finds only such buffers fails as "available buffer(s)
 * still busy", so with the cleaner a busy buffer is back within one period.
 * dtrace_spec_clean() does the same by cross-call when the consumer reads
 * its buffers, so what was committed is there to read.
 *
 * Why no record is lost or left behind: a CPU writes into its own buffer
 * only, from probe context with interrupts off, after it saw ACTIVEONE(me)
 * or ACTIVEMANY (or made it so).  Its cleaner runs on the same CPU, also
 * with interrupts off, so it cannot run in the middle of such a firing: a
 * firing that saw an active state before the commit has finished writing
 * when the cleaner moves the buffer, and every later firing on that CPU
 * sees the committing state and drops.  The mask completes only when every
 * CPU has cleaned, so nothing is recorded into a buffer after it is free.
 * Every loop here is bounded (SPEC_TRIES compare-and-swaps, nspec buffers,
 * ncpus CPUs); nothing waits for another CPU.
 *
 * Context: probe context (interrupts off) for speculation, speculate,
 * commit and discard; the cleaner in its timer interrupt; alloc, free and
 * dtrace_spec_clean in thread context under dtrace_lock.
 *
 * Tests: self-tests trace_smp_commit_across_cpus, stress_speculation_churn;
 *        tests/d/speculation, tests/d/limits
 */
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/time.h"
#include "kernel/xcall.h"
#include "trace/trace_impl.h"

#define SPEC_TRIES 8                        /* compare-and-swaps before giving up */
#define SPEC_CLEANRATE_NS (NSEC_PER_SEC / 101)

/* ---- the state word ---- */

static inline int spec_word(int state, int cpu)
{
	return state | (cpu << 8);
}

static inline int spec_state(int w)
{
	return w & 0xff;
}

static inline int spec_cpu(int w)
{
	return w >> 8;
}

static inline bool spec_cas(dtrace_spec_t *sp, int *w, int next)
{
	return __atomic_compare_exchange_n(&sp->dsp_state, w, next, false, __ATOMIC_ACQ_REL,
	                                   __ATOMIC_ACQUIRE);
}

static inline bool spec_busy(int w)
{
	int st = spec_state(w);

	return st == DTRACE_SPEC_COMMITTING || st == DTRACE_SPEC_COMMITTINGMANY ||
	       st == DTRACE_SPEC_DISCARDING;
}

/* ---- moving one CPU's records ---- */

/* spec_move: this CPU's records of sp into its principal buffer (commit), or away. */
static void spec_move(dtrace_state_t *s, dtrace_spec_t *sp, bool commit)
{
	int cpu = arch_cpu_id();
	dtrace_buffer_t *sb = &sp->dsp_buf[cpu];

	if (commit && sb->dtb_offset != 0) {
		uint8_t *p = dtrace_buffer_reserve(s, &s->dts_buf[cpu], (uint32_t)sb->dtb_offset, false);
		if (p != NULL)
			memcpy(p, sb->dtb_half[0], sb->dtb_offset);
	}
	sb->dtb_offset = 0;
}

/*
 * spec_clean_here: this CPU's share of a COMMITTINGMANY or DISCARDING
 * speculation, once per round; the CPU that completes the round frees it.
 * Interrupts off.
 */
static void spec_clean_here(dtrace_state_t *s, dtrace_spec_t *sp)
{
	int st = spec_state(__atomic_load_n(&sp->dsp_state, __ATOMIC_ACQUIRE));
	uint64_t bit = 1ULL << arch_cpu_id();
	uint64_t all = ncpus >= 64 ? ~0ULL : (1ULL << ncpus) - 1;

	if (st != DTRACE_SPEC_COMMITTINGMANY && st != DTRACE_SPEC_DISCARDING)
		return;
	if (__atomic_load_n(&sp->dsp_cleaned, __ATOMIC_ACQUIRE) & bit)
		return;                             /* done here; others still owe theirs */
	spec_move(s, sp, st == DTRACE_SPEC_COMMITTINGMANY);
	if ((__atomic_fetch_or(&sp->dsp_cleaned, bit, __ATOMIC_ACQ_REL) | bit) != all)
		return;
	__atomic_store_n(&sp->dsp_cleaned, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&sp->dsp_state, DTRACE_SPEC_INACTIVE, __ATOMIC_RELEASE);
}

static void spec_clean_cpu(void *arg)
{
	dtrace_state_t *s = arg;

	for (uint32_t i = 0; i < s->dts_opts.dov_nspec; i++)
		spec_clean_here(s, &s->dts_specs[i]);
}

/* ---- probe context ---- */

/* The DIF environment's speculation(): a free buffer's id, or 0 (counted). */
int dtrace_speculation(void *ctx, uint64_t *id)
{
	dtrace_state_t *s = ctx;
	bool busy = false;

	for (uint32_t i = 0; i < s->dts_opts.dov_nspec; i++) {
		int w = DTRACE_SPEC_INACTIVE;
		if (spec_cas(&s->dts_specs[i], &w, DTRACE_SPEC_ACTIVE)) {
			*id = i + 1;
			return 0;
		}
		busy |= spec_busy(w);
	}
	__atomic_add_fetch(busy ? &s->dts_specbusy : &s->dts_specunavail, 1, __ATOMIC_RELAXED);
	*id = 0;
	return 0;
}

/*
 * dtrace_spec_buffer: this CPU's buffer of speculation id for a speculate(),
 * marking that this CPU holds data; NULL if id is not active.
 */
dtrace_buffer_t *dtrace_spec_buffer(dtrace_state_t *s, uint64_t id)
{
	if (id == 0 || id > s->dts_opts.dov_nspec)
		return NULL;
	dtrace_spec_t *sp = &s->dts_specs[id - 1];
	int me = arch_cpu_id();
	int w = __atomic_load_n(&sp->dsp_state, __ATOMIC_ACQUIRE);

	for (int t = 0; t < SPEC_TRIES; t++) {
		int st = spec_state(w), next;
		if (st == DTRACE_SPEC_ACTIVEMANY || (st == DTRACE_SPEC_ACTIVEONE && spec_cpu(w) == me))
			return &sp->dsp_buf[me];
		if (st == DTRACE_SPEC_ACTIVE)
			next = spec_word(DTRACE_SPEC_ACTIVEONE, me);
		else if (st == DTRACE_SPEC_ACTIVEONE)
			next = DTRACE_SPEC_ACTIVEMANY;
		else
			return NULL;                    /* inactive, or being committed or discarded */
		if (spec_cas(sp, &w, next))
			return &sp->dsp_buf[me];
	}
	return NULL;
}

uint8_t *dtrace_spec_reserve(dtrace_state_t *s, dtrace_buffer_t *b, uint32_t size)
{
	if (b->dtb_offset + size > b->dtb_size) {
		__atomic_add_fetch(&s->dts_specdrops, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	uint8_t *p = b->dtb_half[0] + b->dtb_offset;
	b->dtb_offset += size;
	return p;
}

/*
 * spec_end_here: the data of speculation sp (state word w, ACTIVEONE on
 * this CPU) is all here: commit it through COMMITTING, or drop it.  False
 * if another CPU changed the state first (the caller looks again).
 */
static bool spec_end_here(dtrace_state_t *s, dtrace_spec_t *sp, int *w, bool commit)
{
	if (!commit) {
		spec_move(s, sp, false);            /* nobody else writes this CPU's buffer */
		return spec_cas(sp, w, DTRACE_SPEC_INACTIVE);
	}
	if (!spec_cas(sp, w, DTRACE_SPEC_COMMITTING))
		return false;
	spec_move(s, sp, true);
	__atomic_store_n(&sp->dsp_state, DTRACE_SPEC_INACTIVE, __ATOMIC_RELEASE);
	return true;
}

/* spec_end: commit (or discard) speculation id from probe context. */
static void spec_end(dtrace_state_t *s, uint64_t id, bool commit)
{
	if (id == 0 || id > s->dts_opts.dov_nspec)
		return;
	dtrace_spec_t *sp = &s->dts_specs[id - 1];
	int w = __atomic_load_n(&sp->dsp_state, __ATOMIC_ACQUIRE);
	int many = commit ? DTRACE_SPEC_COMMITTINGMANY : DTRACE_SPEC_DISCARDING;

	for (int t = 0; t < SPEC_TRIES; t++) {
		switch (spec_state(w)) {
		case DTRACE_SPEC_ACTIVE:            /* nothing recorded anywhere */
			if (spec_cas(sp, &w, commit ? DTRACE_SPEC_INACTIVE : DTRACE_SPEC_DISCARDING))
				return;                     /* a discard: free when the cleaner next runs */
			break;
		case DTRACE_SPEC_ACTIVEONE:
			if (spec_cpu(w) == arch_cpu_id()) {
				if (spec_end_here(s, sp, &w, commit))
					return;
				break;
			}
			__attribute__((fallthrough));   /* the data is on another CPU */
		case DTRACE_SPEC_ACTIVEMANY:
			if (spec_cas(sp, &w, many)) {
				spec_clean_here(s, sp);     /* this CPU's share now, in order */
				return;
			}
			break;
		default:
			return;                         /* not active: nothing to do */
		}
	}
}

void dtrace_spec_commit(dtrace_state_t *s, uint64_t id)
{
	spec_end(s, id, true);
}

void dtrace_spec_discard(dtrace_state_t *s, uint64_t id)
{
	spec_end(s, id, false);
}

/* ---- thread context ---- */

/* prog_speculates: does any clause speculate, commit or discard? */
static bool prog_speculates(const dt_prog *p)
{
	for (uint32_t c = 0; p != NULL && c < p->dp_nclauses; c++) {
		const dt_clause *cl = &p->dp_clauses[c];
		for (uint32_t i = 0; i < cl->cl_nacts; i++) {
			int k = cl->cl_acts[i].ac_kind;
			if (k == DT_ACT_SPECULATE || k == DT_ACT_COMMIT || k == DT_ACT_DISCARD)
				return true;
		}
	}
	return false;
}

bool dtrace_spec_used(const dt_prog *p)
{
	return prog_speculates(p);
}

/* spec_cleaners_start: the cleaner cyclic on every CPU, at the cleanrate option. */
static int spec_cleaners_start(dtrace_state_t *s)
{
	uint64_t period = s->dts_opts.dov_cleanrate_ns ? s->dts_opts.dov_cleanrate_ns
	                                               : SPEC_CLEANRATE_NS;

	period = MIN(MAX(period, CYCLIC_MIN_PERIOD_NS * 10), NSEC_PER_SEC);
	s->dts_specclean = kzalloc(ncpus * sizeof(struct cyclic));
	if (s->dts_specclean == NULL)
		return DTRACE_ENOMEM;
	for (int cpu = 0; cpu < ncpus; cpu++)
		if (!cyclic_start_on(cpu, &s->dts_specclean[cpu], period, period, spec_clean_cpu, s))
			return DTRACE_ENOMEM;
	return 0;
}

int dtrace_spec_alloc(dtrace_state_t *s)
{
	uint32_t n = s->dts_opts.dov_nspec;

	s->dts_specs = kzalloc(MAX(n, 1) * sizeof(dtrace_spec_t));
	if (s->dts_specs == NULL)
		return DTRACE_ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		for (int cpu = 0; cpu < ncpus; cpu++)
			if (dtrace_buffer_alloc(&s->dts_specs[i].dsp_buf[cpu], s->dts_opts.dov_specsize,
			                        DTRACE_BUFPOLICY_FILL) != 0)
				return DTRACE_ENOMEM;
	return n != 0 && prog_speculates(s->dts_prog) ? spec_cleaners_start(s) : 0;
}

/* dtrace_spec_free: stops the cleaners (none runs after), then frees; before the principal buffers go. */
void dtrace_spec_free(dtrace_state_t *s)
{
	if (s->dts_specclean != NULL) {
		for (int cpu = 0; cpu < ncpus; cpu++)
			cyclic_stop(&s->dts_specclean[cpu]);
		kfree(s->dts_specclean);
		s->dts_specclean = NULL;
	}
	if (s->dts_specs == NULL)
		return;
	for (uint32_t i = 0; i < s->dts_opts.dov_nspec; i++)
		for (int cpu = 0; cpu < MAX_CPUS; cpu++)
			dtrace_buffer_free(&s->dts_specs[i].dsp_buf[cpu]);
	kfree(s->dts_specs);
	s->dts_specs = NULL;
}

/*
 * dtrace_spec_clean: finish at once the commits and discards that CPUs
 * still owe (each CPU moves its own, by cross-call), so that the consumer
 * reads what was committed.  Thread context (the consumer, before it reads
 * the buffers).
 */
void dtrace_spec_clean(dtrace_state_t *s)
{
	for (uint32_t i = 0; s->dts_specs != NULL && i < s->dts_opts.dov_nspec; i++) {
		int st = spec_state(__atomic_load_n(&s->dts_specs[i].dsp_state, __ATOMIC_ACQUIRE));
		if (st == DTRACE_SPEC_COMMITTINGMANY || st == DTRACE_SPEC_DISCARDING) {
			xcall_all(spec_clean_cpu, s);
			return;
		}
	}
}
