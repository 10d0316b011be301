/*
 * baggage.c - a thread's baggage and the kernel's hand-offs of it.
 *
 * Each thread owns one struct baggage (t_bag, kernel/thread.h), written only
 * by probes firing in its own context (D's `bag->k = v`, with interrupts
 * off) and by the hand-offs below, which copy bytes rather than share them:
 * a blob is never shared, so none is ever changed under a reader, and no
 * hand-off allocates.  The hand-offs (docs/causal.md):
 *
 *   thread creation, fork   the child starts with a copy of the parent's
 *   wake-up                 the wakee's baggage is joined with the waker's
 *                           (before the wakee can run again)
 *   pipe write -> read      each write segment keeps the writer's baggage;
 *                           the read that consumes it adopts it
 *   work queue item         the worker adopts the item's baggage
 *   link message            baggage_export / baggage_import (the link code)
 *
 * Each site in the kernel is a BAGGAGE_* macro (kernel/baggage_site.h):
 * one no-op instruction while no enabled program uses `bag->`.  With the
 * sites on, sdt:::baggage-message fires for each pipe write and queue item
 * with arg0 = the bytes of baggage it carries (0: none).  What does not fit is
 * trimmed (kernel/baggage_fmt.c) and counted in baggage_drops, which D
 * reads as `` `baggage_drops `` (docs/causal.md).
 *
 * Tests: tests/d/causal (thread, wake-up, pipe and fork propagation);
 *        tests/e2e/test_link.py
 */
#include "kernel/baggage.h"
#include "kernel/baggage_site.h"
#include "kernel/cpu.h"
#include "kernel/klib.h"
#include "kernel/sdt.h"
#include "kernel/thread.h"

volatile uint64_t baggage_drops;     /* trims, all causes; D's `baggage_drops */

NOTRACE void baggage_drop_count(void)
{
	__atomic_fetch_add(&baggage_drops, 1, __ATOMIC_RELAXED);
}

size_t baggage_export(const struct thread *t, uint8_t *buf, size_t cap)
{
	size_t len = bag_len(&t->t_bag);

	if (len <= BAGGAGE_HDR && !bag_overflowed(&t->t_bag))
		return 0;
	if (len > cap)
		return 0;
	memcpy(buf, t->t_bag.b_bytes, len);
	return len;
}

int baggage_import(struct thread *t, const uint8_t *buf, size_t len)
{
	uint64_t flags = arch_irq_save();
	int rc = bag_merge_wire(&t->t_bag, buf, len);

	arch_irq_restore(flags);
	if (rc == BAG_E_FULL)
		baggage_drop_count();
	return rc;
}

/* --- the hand-offs -------------------------------------------------------- */

void baggage_join(struct baggage *dst, const struct baggage *src)
{
	uint64_t flags;

	if (bag_len(src) == 0)
		return;
	flags = arch_irq_save();
	if (bag_merge(dst, src) == BAG_E_FULL)
		baggage_drop_count();
	arch_irq_restore(flags);
}

void baggage_adopt(struct baggage *dst, const struct baggage *src)
{
	uint64_t flags;
	size_t len = bag_len(src);

	if (len == 0)
		return;
	flags = arch_irq_save();
	memcpy(dst->b_bytes, src->b_bytes, len);
	arch_irq_restore(flags);
}

void baggage_wake_slow(struct thread *wakee)
{
	struct thread *self = curthread();

	/* a wake-up from an interrupt handler is not caused by the interrupted thread */
	if (self == NULL || self == wakee || curcpu()->cpu_intr_depth > 0)
		return;
	baggage_join(&wakee->t_bag, &self->t_bag);
}

void baggage_fork_slow(struct thread *child)
{
	struct thread *self = curthread();

	if (self != NULL && self != child)
		baggage_adopt(&child->t_bag, &self->t_bag);
}

void baggage_save_slow(struct baggage *into)
{
	struct thread *self = curthread();

	bag_clear(into);
	if (self != NULL)
		baggage_adopt(into, &self->t_bag);
	DTRACE_PROBE1(baggage__message, bag_len(into));   /* bytes this message carries */
}

void baggage_take_slow(const struct baggage *from)
{
	struct thread *self = curthread();

	if (self != NULL)
		baggage_adopt(&self->t_bag, from);
}

/* --- pipes: baggage per write segment ------------------------------------- */

static volatile uint32_t baggage_gen = 1;    /* bumped each time the sites go on */

/* bag_segs_fresh: drop segments from an earlier period of the sites being on. */
static void bag_segs_fresh(struct bag_segs *q)
{
	if (q->bq_n > 0 && q->bq_seg[0].bs_gen != baggage_gen)
		q->bq_n = 0;
}

void baggage_pipe_write_slow(struct bag_segs *q, size_t queued)
{
	struct thread *self = curthread();
	struct bag_seg *last;
	uint32_t start;

	if (self == NULL || bag_len(&self->t_bag) == 0)
		return;
	DTRACE_PROBE1(baggage__message, bag_len(&self->t_bag));   /* bytes this write carries */
	bag_segs_fresh(q);
	last = q->bq_n > 0 ? &q->bq_seg[q->bq_n - 1] : NULL;
	start = last != NULL ? last->bs_end : 0;
	if (last != NULL && bag_len(&last->bs_bag) == bag_len(&self->t_bag) &&
	    memcmp(last->bs_bag.b_bytes, self->t_bag.b_bytes, bag_len(&last->bs_bag)) == 0) {
		last->bs_end = (uint32_t)queued;
		return;
	}
	if (q->bq_n == BAG_SEGS) {
		baggage_join(&last->bs_bag, &self->t_bag);
		last->bs_end = (uint32_t)queued;
		return;
	}
	last = &q->bq_seg[q->bq_n++];
	last->bs_start = MIN(start, (uint32_t)queued);
	last->bs_end = (uint32_t)queued;
	last->bs_gen = baggage_gen;
	bag_clear(&last->bs_bag);
	baggage_adopt(&last->bs_bag, &self->t_bag);
}

void baggage_pipe_read_slow(struct bag_segs *q, size_t got)
{
	struct thread *self = curthread();
	int keep = 0, used = 0;

	bag_segs_fresh(q);
	for (int i = 0; i < q->bq_n; i++) {
		struct bag_seg *s = &q->bq_seg[i];
		if (s->bs_start < got && self != NULL) {
			if (used++ == 0)
				baggage_adopt(&self->t_bag, &s->bs_bag);
			else
				baggage_join(&self->t_bag, &s->bs_bag);
		}
		if (s->bs_end <= got)
			continue;                       /* consumed */
		s->bs_start = s->bs_start > got ? s->bs_start - (uint32_t)got : 0;
		s->bs_end -= (uint32_t)got;
		if (keep != i)
			q->bq_seg[keep] = *s;
		keep++;
	}
	q->bq_n = keep;
}

/* --- turning the sites on and off ----------------------------------------- */

volatile bool baggage_sites_on;

#ifdef ARCH_BRANCH_SITE
#include "kernel/mem.h"


int baggage_sites_set(bool on)
{
	uint8_t op = on ? ARCH_BRANCH_SITE_ON : ARCH_BRANCH_SITE_OFF;
	int n = 0;

	if (baggage_sites_on == on)
		return 0;
	if (on)
		baggage_gen++;
	baggage_sites_on = on;
	for (const struct baggage_site *s = __start_baggage_sites; s < __stop_baggage_sites; s++, n++)
		if (!text_patch((void *)s->bs_addr, &op, 1))
			panic("baggage_sites_set: cannot patch %lx", (unsigned long)s->bs_addr);
	text_patch_sync();
	return n;
}
#else
int baggage_sites_set(bool on)
{
	if (on && !baggage_sites_on)
		baggage_gen++;
	baggage_sites_on = on;
	return 0;
}
#endif
