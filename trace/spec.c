/*
 * spec.c - speculative tracing.
 *
 * speculation() hands out one of nspec speculative buffers (ids from 1; 0
 * when none is free, counted as a failed speculation).  A clause that
 * starts with speculate(id) writes its record into that buffer, on its CPU,
 * instead of the principal buffer.  commit(id) moves the buffer's records
 * into the principal buffer, in the order they were recorded; discard(id)
 * throws them away; either way the buffer is free again.  As in DTrace,
 * the CPU that commits moves its own records at once; other CPUs' records
 * are moved by cross-call from thread context when the consumer next reads
 * its buffers (dtrace_spec_clean), and until then the buffer is committing
 * (or discarding) and speculation() cannot hand it out ("available
 * buffer(s) still busy").  With one CPU everything completes at once.  A
 * full speculative buffer drops the record ("speculative drops").  Probe
 * context, interrupts off, except alloc, free and clean.
 */
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/xcall.h"
#include "trace/trace_impl.h"

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
	return 0;
}

void dtrace_spec_free(dtrace_state_t *s)
{
	if (s->dts_specs == NULL)
		return;
	for (uint32_t i = 0; i < s->dts_opts.dov_nspec; i++)
		for (int cpu = 0; cpu < TRACE_MAXCPUS; cpu++)
			dtrace_buffer_free(&s->dts_specs[i].dsp_buf[cpu]);
	kfree(s->dts_specs);
	s->dts_specs = NULL;
}

/* The DIF environment's speculation(): a free buffer's id, or 0. */
int dtrace_speculation(void *ctx, uint64_t *id)
{
	dtrace_state_t *s = ctx;
	bool busy = false;

	for (uint32_t i = 0; i < s->dts_opts.dov_nspec; i++) {
		int expect = DTRACE_SPEC_INACTIVE;
		if (__atomic_compare_exchange_n(&s->dts_specs[i].dsp_state, &expect, DTRACE_SPEC_ACTIVE,
		                                false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			*id = i + 1;
			return 0;
		}
		busy |= expect == DTRACE_SPEC_COMMITTING || expect == DTRACE_SPEC_DISCARDING;
	}
	if (busy)
		__atomic_add_fetch(&s->dts_specbusy, 1, __ATOMIC_RELAXED);
	else
		__atomic_add_fetch(&s->dts_specunavail, 1, __ATOMIC_RELAXED);
	*id = 0;
	return 0;
}

/* dtrace_spec_buffer: this CPU's buffer of active speculation id, or NULL. */
dtrace_buffer_t *dtrace_spec_buffer(dtrace_state_t *s, uint64_t id)
{
	if (id == 0 || id > s->dts_opts.dov_nspec ||
	    s->dts_specs[id - 1].dsp_state != DTRACE_SPEC_ACTIVE)
		return NULL;
	return &s->dts_specs[id - 1].dsp_buf[arch_cpu_id()];
}

uint8_t *dtrace_spec_reserve(dtrace_state_t *s, dtrace_buffer_t *b, uint32_t size)
{
	if (b->dtb_offset + size > b->dtb_size) {
		s->dts_specdrops++;
		return NULL;
	}
	uint8_t *p = b->dtb_half[0] + b->dtb_offset;
	b->dtb_offset += size;
	return p;
}

/* spec_move: this CPU's records of speculation sp into its principal buffer (or away). */
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

static bool others_have_data(dtrace_spec_t *sp)
{
	int self = arch_cpu_id();

	for (int cpu = 0; cpu < ncpus; cpu++)
		if (cpu != self && sp->dsp_buf[cpu].dtb_offset != 0)
			return true;
	return false;
}

/* spec_end: commit (or discard) speculation id from probe context. */
static void spec_end(dtrace_state_t *s, uint64_t id, bool commit)
{
	if (id == 0 || id > s->dts_opts.dov_nspec)
		return;
	dtrace_spec_t *sp = &s->dts_specs[id - 1];
	int expect = DTRACE_SPEC_ACTIVE;
	int next = commit ? DTRACE_SPEC_COMMITTING : DTRACE_SPEC_DISCARDING;
	if (!__atomic_compare_exchange_n(&sp->dsp_state, &expect, next, false,
	                                 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;                             /* not active: nothing to do */
	spec_move(s, sp, commit);
	if (!others_have_data(sp))
		__atomic_store_n(&sp->dsp_state, DTRACE_SPEC_INACTIVE, __ATOMIC_RELEASE);
}

void dtrace_spec_commit(dtrace_state_t *s, uint64_t id)
{
	spec_end(s, id, true);
}

void dtrace_spec_discard(dtrace_state_t *s, uint64_t id)
{
	spec_end(s, id, false);
}

struct spec_clean {
	dtrace_state_t *sc_s;
	dtrace_spec_t *sc_sp;
};

static void spec_clean_local(void *arg)
{
	struct spec_clean *c = arg;

	spec_move(c->sc_s, c->sc_sp, c->sc_sp->dsp_state == DTRACE_SPEC_COMMITTING);
}

/*
 * dtrace_spec_clean: finish the commits and discards that other CPUs'
 * records still wait for, each CPU moving its own.  Thread context (the
 * consumer, before it reads the buffers).
 */
void dtrace_spec_clean(dtrace_state_t *s)
{
	for (uint32_t i = 0; s->dts_specs != NULL && i < s->dts_opts.dov_nspec; i++) {
		dtrace_spec_t *sp = &s->dts_specs[i];
		int st = __atomic_load_n(&sp->dsp_state, __ATOMIC_ACQUIRE);
		if (st != DTRACE_SPEC_COMMITTING && st != DTRACE_SPEC_DISCARDING)
			continue;
		struct spec_clean c = { s, sp };
		xcall_all(spec_clean_local, &c);
		__atomic_store_n(&sp->dsp_state, DTRACE_SPEC_INACTIVE, __ATOMIC_RELEASE);
	}
}
