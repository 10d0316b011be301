/*
 * spec.c - speculative tracing.
 *
 * speculation() hands out one of nspec speculative buffers (ids from 1; 0
 * when none is free, counted as a failed speculation).  A clause that
 * starts with speculate(id) writes its record into that buffer, on its CPU,
 * instead of the principal buffer.  commit(id) moves the buffer's records
 * into the principal buffer, in the order they were recorded; discard(id)
 * throws them away; either way the buffer is free again.  DTrace commits
 * asynchronously across CPUs (states committing/discarding); with one CPU
 * both complete at once, inside the probe that asked, so a buffer is only
 * ever inactive or active.  A full speculative buffer drops the record
 * ("speculative drops").  Probe context, interrupts off, except alloc/free.
 */
#include "kernel/klib.h"
#include "kernel/mem.h"
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

	for (uint32_t i = 0; i < s->dts_opts.dov_nspec; i++) {
		if (s->dts_specs[i].dsp_state == DTRACE_SPEC_INACTIVE) {
			s->dts_specs[i].dsp_state = DTRACE_SPEC_ACTIVE;
			*id = i + 1;
			return 0;
		}
	}
	s->dts_specunavail++;
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

static void spec_release(dtrace_state_t *s, uint64_t id)
{
	for (int cpu = 0; cpu < ncpus; cpu++)
		s->dts_specs[id - 1].dsp_buf[cpu].dtb_offset = 0;
	s->dts_specs[id - 1].dsp_state = DTRACE_SPEC_INACTIVE;
}

void dtrace_spec_commit(dtrace_state_t *s, uint64_t id)
{
	if (id == 0 || id > s->dts_opts.dov_nspec ||
	    s->dts_specs[id - 1].dsp_state != DTRACE_SPEC_ACTIVE)
		return;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		dtrace_buffer_t *sb = &s->dts_specs[id - 1].dsp_buf[cpu];
		if (sb->dtb_offset == 0)
			continue;
		uint8_t *p = dtrace_buffer_reserve(s, &s->dts_buf[cpu], (uint32_t)sb->dtb_offset, false);
		if (p != NULL)
			memcpy(p, sb->dtb_half[0], sb->dtb_offset);
	}
	spec_release(s, id);
}

void dtrace_spec_discard(dtrace_state_t *s, uint64_t id)
{
	if (id != 0 && id <= s->dts_opts.dov_nspec &&
	    s->dts_specs[id - 1].dsp_state == DTRACE_SPEC_ACTIVE)
		spec_release(s, id);
}
