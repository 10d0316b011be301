/*
 * buffer.c - per-CPU principal buffers and their policies.
 *
 * switch (default): two halves.  Probe context appends records to the
 *   active half; the consumer's snapshot swaps the halves (by cross-call,
 *   on that CPU with interrupts off) and copies out the inactive one.  A
 *   record that does not fit is dropped and counted.
 * fill: one half.  When a record does not fit, the buffer is full: recording
 *   stops (and the consumer stops tracing), except for END's records, for
 *   which space was set aside when the program was enabled (all that END's
 *   clauses may record, and a little for errors: fill_error_room).
 * ring: one half used circularly; the oldest records are overwritten, never
 *   dropped.  Read once, when tracing stops.
 *
 * Whatever the policy, the last dts_exit_reserve bytes of a half are kept
 * for the record of a clause that calls exit() (the largest such record):
 * exit() is a data-recording action, and if a flood could crowd out its
 * record, the clause would never run and tracing would never end.  One
 * record is enough: after exit() the state is draining and records nothing
 * more.  A program without exit() keeps nothing back.
 *
 * Records are whole and 8-byte aligned; their header carries their size, so
 * the ring can step over the records it overwrites.
 *
 * Tests: self-tests trace_switch_drops_exactly, trace_ring_keeps_newest,
 *        trace_fill_stops_and_keeps_end, stress_exact_records_plus_drops;
 *        tests/d/buffers, tests/d/drops
 */
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/xcall.h"
#include "trace/trace_impl.h"

int dtrace_buffer_alloc(dtrace_buffer_t *b, uint64_t size, int policy)
{
	memset(b, 0, sizeof(*b));
	b->dtb_size = ALIGN_DOWN(size, 8);         /* 0: every record is a drop */
	b->dtb_half[0] = kmalloc(MAX(b->dtb_size, 8));
	if (policy == DTRACE_BUFPOLICY_SWITCH)
		b->dtb_half[1] = kmalloc(MAX(b->dtb_size, 8));
	if (b->dtb_half[0] == NULL || (policy == DTRACE_BUFPOLICY_SWITCH && b->dtb_half[1] == NULL)) {
		dtrace_buffer_free(b);
		return DTRACE_ENOMEM;
	}
	return 0;
}

void dtrace_buffer_free(dtrace_buffer_t *b)
{
	kfree(b->dtb_half[0]);
	kfree(b->dtb_half[1]);
	b->dtb_half[0] = b->dtb_half[1] = NULL;
}

static uint32_t rec_size_at(const dtrace_buffer_t *b, uint64_t off)
{
	return ((const dtrace_rechdr_t *)(b->dtb_half[0] + off))->dtrh_size;
}

static uint8_t *ring_reserve(dtrace_buffer_t *b, uint32_t size)
{
	if (b->dtb_offset + size > b->dtb_size) {   /* no room at the end: wrap */
		b->dtb_ring_end = b->dtb_offset;
		b->dtb_offset = 0;
		b->dtb_ring_head = 0;
		b->dtb_ring_wrapped = true;
	}
	if (b->dtb_ring_wrapped) {                   /* step over what we overwrite */
		while (b->dtb_ring_head < b->dtb_ring_end &&
		       b->dtb_ring_head < b->dtb_offset + size)
			b->dtb_ring_head += rec_size_at(b, b->dtb_ring_head);
		if (b->dtb_ring_head >= b->dtb_ring_end)
			b->dtb_ring_wrapped = false;
	}
	uint8_t *p = b->dtb_half[0] + b->dtb_offset;
	b->dtb_offset += size;
	return p;
}

/*
 * fill_error_room: under the fill policy, room kept next to END's for the
 * error records of faults in END (so that they are reported): up to four,
 * but never more than a quarter of what the other reserves leave, so a
 * small buffer still takes ordinary records until it is full.
 */
static uint64_t fill_error_room(uint64_t size, uint64_t kept)
{
	uint64_t left = size > kept ? size - kept : 0;

	return ALIGN_DOWN(MIN(4 * sizeof(dtrace_errrec_t), left / 4), 8);
}

/*
 * dtrace_buffer_limits: how much of a half a record of each class may fill:
 * all of it for an exit() clause's record, less the exit reserve for the
 * others, less END's reserve too for ordinary records under the fill
 * policy.  Worked out once, when the reserves are known, so that a firing
 * pays one load.  Thread context (enabling).
 */
void dtrace_buffer_limits(dtrace_state_t *s)
{
	uint64_t size = ALIGN_DOWN(s->dts_opts.dov_bufsize, 8);   /* every CPU's dtb_size */

	for (int c = DTRACE_REC_ORDINARY; c <= DTRACE_REC_EXIT; c++) {
		uint64_t keep = c != DTRACE_REC_EXIT ? s->dts_exit_reserve : 0;
		if (c == DTRACE_REC_ORDINARY && s->dts_opts.dov_bufpolicy == DTRACE_BUFPOLICY_FILL)
			keep += s->dts_end_reserve + fill_error_room(size, keep + s->dts_end_reserve);
		s->dts_reclimit[c] = size > keep ? size - keep : 0;
	}
}

/*
 * dtrace_buffer_reserve: room for a record of size bytes in b, or NULL
 * (counted as a drop).  recclass (enum dtrace_recclass) says which of the
 * reserves at the end of the half the record may use.  Probe context,
 * interrupts off.
 */
uint8_t *dtrace_buffer_reserve(dtrace_state_t *s, dtrace_buffer_t *b, uint32_t size, int recclass)
{
	int policy = s->dts_opts.dov_bufpolicy;

	if (size > b->dtb_size) {
		b->dtb_drops++;
		return NULL;
	}
	if (policy == DTRACE_BUFPOLICY_RING)
		return ring_reserve(b, size);
	if (b->dtb_offset + size > s->dts_reclimit[recclass] ||
	    (b->dtb_full && recclass == DTRACE_REC_ORDINARY)) {
		if (policy == DTRACE_BUFPOLICY_FILL)
			b->dtb_full = true;
		b->dtb_drops++;
		return NULL;
	}
	uint8_t *p = b->dtb_half[b->dtb_active] + b->dtb_offset;
	b->dtb_offset += size;
	return p;
}

static long copy_out(uint8_t *out, size_t size, const uint8_t *src, uint64_t n, long done)
{
	if ((uint64_t)done + n > size)
		return DTRACE_EINVAL;
	memcpy(out + done, src, n);
	return done + (long)n;
}

struct copyout {
	dtrace_buffer_t *co_b;
	int co_policy;
	uint8_t *co_out;
	size_t co_size;
	long co_n;
	uint8_t *co_half;                         /* switch: the half to copy */
};

/*
 * copyout_local: on the buffer's own CPU (interrupts off), so that no
 * record is being written while we look: switch the halves, or for fill and
 * ring copy the data out and reset.
 */
static void copyout_local(void *arg)
{
	struct copyout *c = arg;
	dtrace_buffer_t *b = c->co_b;

	if (c->co_policy == DTRACE_BUFPOLICY_SWITCH) {
		c->co_half = b->dtb_half[b->dtb_active];
		c->co_n = (long)b->dtb_offset;
		b->dtb_active ^= 1;
		b->dtb_offset = 0;
		return;
	}
	long n = 0;
	if (c->co_policy == DTRACE_BUFPOLICY_RING && b->dtb_ring_wrapped)
		n = copy_out(c->co_out, c->co_size, b->dtb_half[0] + b->dtb_ring_head,
		             b->dtb_ring_end - b->dtb_ring_head, 0);
	if (n >= 0)
		n = copy_out(c->co_out, c->co_size, b->dtb_half[0], b->dtb_offset, n);
	b->dtb_offset = 0;
	b->dtb_ring_wrapped = false;
	b->dtb_ring_head = 0;
	c->co_n = n;
}

/*
 * dtrace_buffer_copyout: take everything recorded in CPU cpu's buffer b
 * since the last call.  The caller's buffer must hold a whole buffer's worth
 * (dtb_size).  Thread context; a cross-call does the switch on that CPU.
 */
long dtrace_buffer_copyout(dtrace_buffer_t *b, int cpu, int policy, void *out, size_t size)
{
	struct copyout c = { b, policy, out, size, 0, NULL };

	xcall(cpu, copyout_local, &c);
	if (policy == DTRACE_BUFPOLICY_SWITCH && c.co_n >= 0)
		return copy_out(out, size, c.co_half, (uint64_t)c.co_n, 0);
	return c.co_n;
}

long dtrace_buffer_snapshot(dtrace_state_t *s, int cpu, void *buf, size_t size)
{
	if (s->dts_prog == NULL || cpu < 0 || cpu >= ncpus)
		return DTRACE_EINVAL;
	s->dts_laststatus = ktime_ns();
	dtrace_spec_clean(s);                       /* commits other CPUs still owe */
	return dtrace_buffer_copyout(&s->dts_buf[cpu], cpu, s->dts_opts.dov_bufpolicy, buf, size);
}
