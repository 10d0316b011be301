/*
 * bufsize.c - how big a state's buffers are: DTrace's buffer resizing policy.
 *
 * A consumer asks for bufsize (principal buffers), aggsize (aggregation
 * buffers), specsize (speculation buffers) and dynvarsize (the dynamic
 * variable space), any size from 0 up.  Before anything is allocated,
 * dtrace_buffer_sizes() checks each against what the machine can give:
 * all of a state's buffers together may take at most half of the free
 * physical memory (Sonde's limit, so that tracing never starves the kernel
 * it traces), in fixed shares so that one huge request does not shrink the
 * others: the principal buffers a quarter of it, the aggregation buffers
 * an eighth, the speculation buffers and the dynamic variable space a
 * sixteenth each.  Under bufresize=auto (the default) a size that does not fit
 * is halved until it does, as DTrace halves a buffer whose allocation
 * failed, and the state's options then hold the size it got; the consumer
 * sees the lowered size (dtrace_opts_get) and says so ("buffer size lowered
 * to 32m").  Under bufresize=manual the enabling fails instead
 * (DTRACE_ENOMEM, "Not enough space").  The budget is checked before any
 * allocation, so a huge request never eats memory or address space.
 *
 * Small sizes follow DTrace's rules.  Every size is rounded down to a
 * multiple of 8.  A principal buffer smaller than the largest record of
 * any ECB of the program cannot be had: DTrace refuses to enable
 * ("Enabling exceeds size of buffer", DTRACE_EBUFSMALL), whatever the
 * policy, after any lowering by bufresize=auto; a principal buffer of 0
 * is no exception when the program records anything (its exit() record
 * could never be traced, and tracing would never end).  A speculation or
 * aggregation buffer too small for a record drops it (counted, and
 * reported as DTrace reports drops: "speculative drops", "aggregation
 * drops").  An aggregation or speculation size of 0 is no buffer at
 * all, so everything meant for it is dropped.  A size from 1 to 7 cannot be had
 * ("Not enough space").  A program that aggregates gets a principal
 * buffer of at least its largest record, and the dynamic variable space
 * always holds at least one variable (dynvar.c).  Beyond that the enabling
 * fails only where DTrace refuses to start: a principal buffer smaller
 * than a record (DTRACE_EBUFSMALL, above) and, under the fill policy, a
 * principal buffer smaller than the END records that the policy keeps
 * room for (DTRACE_EENDBIG: the Guide's "net size is negative"; a net
 * size of 0 is allowed, and leaves nothing for other records).
 *
 * Context: thread context, dtrace_lock held (enabling).
 *
 * Tests: tests/d/buffers; tests/e2e/test_dtrace_buffers.py
 */
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "trace/trace_impl.h"

/*
 * size_fit: lower *size (halving, multiples of 8) until copies of it fit in
 * *budget, then take them from it.  Returns 0, or DTRACE_ENOMEM if it does
 * not fit and the policy forbids lowering.
 */
static int size_fit(uint64_t *size, uint64_t copies, uint64_t *budget, bool manual)
{
	uint64_t sz = ALIGN_DOWN(*size, 8);

	while (sz > 0 && sz > *budget / copies) {
		if (manual)
			return DTRACE_ENOMEM;
		sz = ALIGN_DOWN(sz / 2, 8);
	}
	*budget -= sz * copies;
	if (sz != ALIGN_DOWN(*size, 8))
		*size = sz;                          /* lowered: the consumer reports it */
	return 0;
}

/*
 * sizes_raise_or_refuse: DTrace's rules before it allocates: a program
 * with aggregations (and an aggregation buffer) gets a principal buffer of
 * at least its largest record, and a buffer that is asked for but smaller
 * than 8 bytes cannot be had at all (no halving reaches a usable size):
 * the principal buffer always, the aggregation buffer when the program
 * aggregates, the speculation buffers when it speculates.  A size of 0 is
 * no buffer: every record for it is dropped.
 */
static int sizes_raise_or_refuse(dtrace_state_t *s, uint32_t needed)
{
	dtrace_optvals_t *o = &s->dts_opts;
	bool aggs = s->dts_prog->dp_naggs > 0 && o->dov_aggsize != 0;

	if (aggs && o->dov_bufsize < needed)
		o->dov_bufsize = needed;
	if ((o->dov_bufsize > 0 && o->dov_bufsize < 8) ||
	    (aggs && o->dov_aggsize < 8) ||
	    (dtrace_spec_used(s->dts_prog) && o->dov_specsize > 0 && o->dov_specsize < 8))
		return DTRACE_ENOMEM;
	return 0;
}

int dtrace_buffer_sizes(dtrace_state_t *s, uint32_t needed)
{
	dtrace_optvals_t *o = &s->dts_opts;
	struct pmem_stats ps;
	bool manual = o->dov_bufresize == DTRACE_BUFRESIZE_MANUAL;
	uint64_t halves = o->dov_bufpolicy == DTRACE_BUFPOLICY_SWITCH ? 2 : 1;
	int rc = sizes_raise_or_refuse(s, needed);

	pmem_stats(&ps);
	uint64_t principal = ps.ps_free / 4, agg = ps.ps_free / 8, spec = ps.ps_free / 16;
	uint64_t dyn = ps.ps_free / 16;
	if (rc == 0)
		rc = size_fit(&o->dov_bufsize, halves * (uint64_t)ncpus, &principal, manual);
	if (rc == 0)
		rc = size_fit(&o->dov_aggsize, (uint64_t)ncpus, &agg, manual);
	if (rc == 0)
		rc = size_fit(&o->dov_specsize, (uint64_t)MAX(o->dov_nspec, 1) * (uint64_t)ncpus,
		              &spec, manual);
	if (rc == 0)
		rc = size_fit(&o->dov_dynvarsize, 1, &dyn, manual);
	return rc;
}

int dtrace_buffer_check_end(const dtrace_state_t *s, uint32_t needed, uint32_t end_bytes)
{
	uint64_t size = ALIGN_DOWN(s->dts_opts.dov_bufsize, 8);

	if (needed > size)
		return DTRACE_EBUFSMALL;            /* a record that could never be traced (-b 0 too) */
	if (s->dts_opts.dov_bufpolicy == DTRACE_BUFPOLICY_FILL && end_bytes > size)
		return DTRACE_EENDBIG;              /* what END may record: more than the buffer */
	return 0;
}
